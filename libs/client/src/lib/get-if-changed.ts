import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../generated/petstore';

/** The paths whose GET may answer 304 Not Modified (the document's conditional GETs: getPet, listPets). */
export type ConditionalPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 304: unknown } } } ? P : never;
}[keyof paths];

/** A GET answered as without If-None-Match (200, or an error), with the new `ETag` if any. */
export type Changed<P extends ConditionalPath> = FetchResponse<paths[P]['get'], object, `${string}/${string}`> & {
  readonly notModified: false;
  readonly etag: string | undefined;
};

/** 304: the copy whose `ETag` was sent is still the current one. No body. */
export interface NotModified {
  readonly notModified: true;
  readonly etag: string;
  readonly data?: undefined;
  readonly error?: undefined;
  readonly response: Response;
}

interface FetchResult {
  readonly response: Response;
}

/** A conditional GET: `etag` is sent as If-None-Match; unchanged comes back `{ notModified: true }`, else openapi-fetch's answer. */
export async function getIfChanged<P extends ConditionalPath>(
  client: Client<paths>,
  path: P,
  init: MaybeOptionalInit<paths[P], 'get'>,
  etag?: string,
): Promise<Changed<P> | NotModified> {
  const params = { ...init?.params, header: { ...init?.params?.header, ...(etag === undefined ? {} : { 'If-None-Match': etag }) } };
  // openapi-fetch's GET is overloaded per path; `path` is one of them and `init` its options.
  const get = client.GET as unknown as (path: P, init: object) => Promise<FetchResult>;
  const result = await get(path, { ...init, params });
  const { response } = result;
  if (response.status === 304) return { notModified: true, etag: response.headers.get('etag') ?? etag ?? '', response };
  return {
    ...(result as FetchResponse<paths[P]['get'], object, `${string}/${string}`>),
    notModified: false,
    etag: response.headers.get('etag') ?? undefined,
  };
}
