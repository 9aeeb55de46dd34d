// Loaded only when tracing is on. Unbundled, like pg, ioredis and pino, as it hooks `require` (tools/build/build.mjs, UNBUNDLED).
import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_CLIENT_ADDRESS, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance } from 'fastify';
import { TOKEN_QUERY_PARAMETER } from './query-token';

/** service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name another. */
export const DEFAULT_SERVICE_NAME = 'petstore';

export interface TracingSdk {
  nameServerSpansByRoute(fastify: FastifyInstance): void;
  shutdown(): Promise<void>;
}

/** Starts the SDK for traces only, as OTEL_* configures it; undefined when OTEL_SDK_DISABLED turned it off. */
export function startTracingSdk(): TracingSdk | undefined {
  // Enabled by the SDK's start, not here: a disabled SDK leaves every module as it is.
  const http = new HttpInstrumentation({
    enabled: false,
    disableOutgoingRequestInstrumentation: true,
    redactedQueryParamsServer: [TOKEN_QUERY_PARAMETER],
  });
  const instrumentations = [
    http,
    // Statements and commands of a request only: not the migrations, the sweeper or the connections.
    new PgInstrumentation({ enabled: false, requireParentSpan: true, ignoreConnectSpans: true }),
    new IORedisInstrumentation({ enabled: false, requireParentSpan: true }),
    // trace_id and span_id in every line logged within a span; the lines themselves stay on stdout.
    new PinoInstrumentation({ enabled: false, disableLogSending: true }),
  ];
  const sdk = new NodeSDK({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME })),
    instrumentations,
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  if (!http.isEnabled()) return undefined;
  return { nameServerSpansByRoute, shutdown: () => sdk.shutdown() };
}

// Names the span by route; client.address becomes ours (TRUST_PROXY), not the X-Forwarded-For entry any client writes.
function nameServerSpansByRoute(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const metadata = getRPCMetadata(context.active());
    if (metadata?.type === RPCType.HTTP) {
      metadata.span.setAttribute(ATTR_CLIENT_ADDRESS, request.ip);
      if (request.routeOptions.url !== undefined) metadata.route = request.routeOptions.url;
    }
    done();
  });
}
