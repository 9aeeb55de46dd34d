import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP's span kinds (opentelemetry-proto, trace.proto), as OTLP/JSON sends them. */
export const SPAN_KIND = { SERVER: 2, CLIENT: 3 } as const;

/** A span as OTLP/JSON carries it (ids in hex), its attributes as a plain record, with its instrumentation scope. */
export interface ReceivedSpan {
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
}

interface OtlpAttribute {
  readonly key: string;
  readonly value: Readonly<Record<string, unknown>>;
}

interface OtlpTraces {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly OtlpAttribute[] };
    readonly scopeSpans?: readonly {
      readonly scope?: { readonly name?: string };
      readonly spans?: readonly (Omit<ReceivedSpan, 'scope' | 'attributes'> & { readonly attributes?: readonly OtlpAttribute[] })[];
    }[];
  }[];
}

export interface OtlpReceiver {
  /** What a service exports to: OTEL_EXPORTER_OTLP_ENDPOINT (the SDK appends /v1/traces). */
  readonly url: string;
  /** Every span received so far. */
  spans(): readonly ReceivedSpan[];
  /** The resources' attributes of every export received so far. */
  resources(): readonly Readonly<Record<string, unknown>>[];
  /** The spans received so far once `done` holds for them, or after `timeoutMs` (for the caller's assertion to show). */
  spansOnce(done: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<readonly ReceivedSpan[]>;
  close(): Promise<void>;
}

/** An attribute's value, whichever of OTLP's value fields holds it (stringValue, intValue…). */
function attributesOf(attributes: readonly OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/**
 * An OTLP/HTTP receiver of traces in JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) on a free port of
 * 127.0.0.1, as a collector would be: it answers every export 200 and keeps what it received.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces;
      for (const { resource, scopeSpans = [] } of body.resourceSpans ?? []) {
        resources.push(attributesOf(resource?.attributes));
        for (const { scope, spans: received = [] } of scopeSpans) {
          for (const span of received) spans.push({ ...span, scope: scope?.name ?? '', attributes: attributesOf(span.attributes) });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    resources: () => resources,
    spansOnce: async (done, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !done(spans)) await new Promise((wait) => setTimeout(wait, 50));
      return spans;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}
