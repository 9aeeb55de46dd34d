import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

// helmet's headers worked out once, so that an answer carries them without @fastify/helmet running
// helmet for it: CPU per request in docs/performance.md, "Micro-optimisations". The spec fails if
// they ever differ from what @fastify/helmet writes.

/** The headers helmet writes for `options`, recorded from one run against a stand-in response. */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
