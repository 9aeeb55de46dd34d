// The OpenTelemetry SDK and the instrumentations of what a request goes through, required by
// tracing.ts only when tracing is on. Their modules stay out of the bundle (tools/build/build.mjs,
// UNBUNDLED), as do pg, ioredis and pino, which they can only instrument when loaded with `require`.
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

/**
 * Starts the SDK as the OTEL_* variables configure it, for traces only: the metrics are
 * Prometheus's (/metrics) and the logs go to stdout. Undefined when OTEL_SDK_DISABLED turned it off.
 */
export function startTracingSdk(): TracingSdk | undefined {
  // Enabled by the SDK's start, not here: a disabled SDK leaves every module as it is.
  const http = new HttpInstrumentation({
    enabled: false,
    disableOutgoingRequestInstrumentation: true,
    // url.query's values of these are written REDACTED, as in the access log.
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

/**
 * The HTTP instrumentation names a server span "METHOD route" from the route its RPC metadata
 * holds when the answer is sent: Fastify knows the route template once it has routed the request.
 * Its client.address is the first Forwarded or X-Forwarded-For entry, which any client writes:
 * the service's own, which trusts only TRUST_PROXY's proxies, replaces it.
 */
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
