// Opt-in traces (docs/operations.md, "Traces"): without an OTEL_* variable none of the SDK is loaded or runs per request.
import type { FastifyInstance } from 'fastify';
import type { TracingSdk } from './tracing-sdk';

const OTEL_PREFIX = 'OTEL_';

/** What --help says of tracing: the variables are the SDK's, which reads them itself. */
export const TRACING_HELP: readonly string[] = [
  `Traces (OpenTelemetry): off unless an ${OTEL_PREFIX}* variable is set; the SDK reads its own variables`,
  `(${['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME', 'OTEL_TRACES_SAMPLER', 'OTEL_SDK_DISABLED'].join(', ')}, ...):`,
  'docs/operations.md, "Traces".',
];

let sdk: TracingSdk | undefined;

/** Whether the environment asks for tracing: any OTEL_* variable with a value (an empty one is unset). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(env).some(([name, value]) => name.startsWith(OTEL_PREFIX) && value !== undefined && value.trim() !== '');
}

/** Starts the SDK when asked. Its instrumentations hook `require`: call it before what they instrument loads (main.ts). */
export function startTracing(env: NodeJS.ProcessEnv): void {
  if (!tracingRequested(env)) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on
  const { startTracingSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  sdk = startTracingSdk();
}

/** While tracing is on, names each request's server span by its route template; else adds nothing. */
export function traceRoutes(fastify: FastifyInstance): void {
  sdk?.nameServerSpansByRoute(fastify);
}

/** How long shutdown waits for the collector: one that is down must not hold the exit. */
const SHUTDOWN_EXPORT_MS = 2_000;

/** Exports the spans still queued at shutdown; never fails: what is not exported within SHUTDOWN_EXPORT_MS is lost, and `warn` says so. */
export async function stopTracing(warn: (message: string) => void): Promise<void> {
  if (!sdk) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>(
    (done) => (timer = setTimeout(done, SHUTDOWN_EXPORT_MS, `no answer within ${SHUTDOWN_EXPORT_MS} ms`)),
  );
  const exported = sdk.shutdown().then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  const failure = await Promise.race([exported, timedOut]);
  clearTimeout(timer);
  if (failure !== undefined) warn(`Spans still queued at shutdown were not exported: ${failure}`);
}
