import type { FastifyInstance, FastifyReply, onResponseHookHandler, RouteOptions } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { BoundHistogram } from './bound-histogram';

export interface RequestMetricsOptions {
  /** The longest a request may take to arrive (HTTP_REQUEST_TIMEOUT_MS): the durations' top bucket. */
  readonly requestTimeoutMs: number;
}

/** The route label of requests that match no route: one series, whatever URL they name. */
const UNMATCHED = 'unmatched';

type Observe = (seconds: number) => void;

/** In-flight requests and durations by route template (never the raw URL), each route's series bound once: no labels per request. */
export function registerRequestMetrics(fastify: FastifyInstance, registry: Registry, { requestTimeoutMs }: RequestMetricsOptions): void {
  let inFlight = 0;
  const ended = () => void inFlight--;
  new Gauge({
    name: 'petstore_http_requests_in_flight',
    help: 'Requests received and not yet answered or abandoned',
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  const duration = new BoundHistogram(
    registry,
    'petstore_http_request_duration_seconds',
    'Time from the request to its answer, by route template, method and status class',
    durationBuckets(requestTimeoutMs / 1000),
  );
  const byStatusClass = (route: string, method: string): Observe[] =>
    ['1xx', '2xx', '3xx', '4xx', '5xx'].map((statusClass) => duration.bind({ route, method, status_class: statusClass }));
  const observe = (children: Observe[] | undefined, reply: FastifyReply) =>
    children?.[Math.floor(reply.statusCode / 100) - 1]?.(reply.elapsedTime / 1000);

  // A response's 'close' comes whether it was sent or its client went away (Fastify's onResponse only in the first case).
  fastify.addHook('onRequest', (_request, reply, done) => {
    inFlight++;
    reply.raw.on('close', ended);
    done();
  });
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const children = new Map([route.method].flat().map((method) => [method, byStatusClass(route.url, method)]));
    const observeRoute: onResponseHookHandler = (request, reply, done) => {
      observe(children.get(request.method), reply);
      done();
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), observeRoute];
  });
  // The methods Node's parser knows: a bounded set.
  const unmatched = new Map<string, Observe[]>();
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      let children = unmatched.get(request.method);
      if (!children) unmatched.set(request.method, (children = byStatusClass(UNMATCHED, request.method)));
      observe(children, reply);
    }
    done();
  });
}

/** From 1 ms by 1, 2.5, 5 per decade up to the request time-out, the last bucket: past it, a request was cut off. */
export function durationBuckets(topSeconds: number): number[] {
  const buckets: number[] = [];
  for (let decade = 0.001; decade < topSeconds; decade *= 10) {
    for (const step of [1, 2.5, 5]) {
      const bound = Number((decade * step).toPrecision(2));
      if (bound < topSeconds) buckets.push(bound);
    }
  }
  return [...buckets, topSeconds];
}
