import type { Client, Middleware, ParseAs } from 'openapi-fetch';
import { type Int64Locations, parseExactJson, responseShape } from './exact-json';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

interface FetchResult {
  readonly response: Response;
  readonly data?: unknown;
  readonly error?: unknown;
}

/** Bodies parsed exactly, by the Response openapi-fetch reads them from. */
type ExactBodies = WeakMap<Response, unknown>;

/** Reads int64 as bigint via a middleware (openapi-fetch has no parse hook); add it first: middleware sees responses in reverse. */
export function withExactJsonBodies<Paths extends object>(client: Client<Paths>, locations: Int64Locations): Client<Paths> {
  const bodies: ExactBodies = new WeakMap();
  client.use(exactBodyReader(bodies, locations));
  const exact = <R extends FetchResult>(result: R): R => withExactBody(result, bodies);
  const exactClient: Client<Paths> = { ...client };
  for (const method of METHODS) {
    const send = client[method] as (...args: unknown[]) => Promise<FetchResult>;
    // openapi-fetch's methods are overloaded per path; the wrapper changes no type, only the body's numbers.
    exactClient[method] = ((...args: unknown[]) => send(...args).then(exact)) as unknown as Client<Paths>[typeof method];
  }
  const request = client.request as (...args: unknown[]) => Promise<FetchResult>;
  exactClient.request = ((...args: unknown[]) => request(...args).then(exact)) as unknown as Client<Paths>['request'];
  return exactClient;
}

function exactBodyReader(bodies: ExactBodies, locations: Int64Locations): Middleware {
  return {
    async onResponse({ request, response, schemaPath, options }) {
      if (!parsedAsJson(request, response, options.parseAs)) return undefined;
      // A copy: the body itself stays for openapi-fetch (and for the caller's `response`).
      const text = await response.clone().text();
      if (text === '') return undefined;
      const shape = responseShape(locations, `${request.method} ${schemaPath}`, response.status);
      try {
        bodies.set(response, parseExactJson(text, shape, locations.schemas));
      } catch {
        // Not JSON: openapi-fetch's own answer stands (the text of an error, a SyntaxError for data).
      }
      return undefined;
    },
  };
}

/** Whether openapi-fetch parses this response's body as JSON: error bodies always, data when `parseAs` is "json". */
function parsedAsJson(request: Request, response: Response, parseAs: ParseAs): boolean {
  if (response.status === 204 || request.method === 'HEAD') return false;
  return !response.ok || parseAs === 'json';
}

function withExactBody<R extends FetchResult>(result: R, bodies: ExactBodies): R {
  if (!bodies.has(result.response)) return result;
  const body = bodies.get(result.response);
  return result.response.ok ? { ...result, data: body } : { ...result, error: body };
}
