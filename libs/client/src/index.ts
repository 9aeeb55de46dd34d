import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { int64Locations } from './generated/int64-locations';
import type { components, paths } from './generated/petstore';
import { withExactJsonBodies } from './lib/exact-client';
import { stringifyExactJson } from './lib/exact-json';

export type { components, operations, paths } from './generated/petstore';
export { createPet, CreatePetError, type CreatePetOptions } from './lib/create-pet';
export { type Changed, type ConditionalPath, getIfChanged, type NotModified } from './lib/get-if-changed';
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type PetstoreError = components['schemas']['Error'];
export { walkPets, WalkPetsError, type WalkPetsQuery } from './lib/walk-pets';

export type PetstoreClient = Client<paths>;

/** createPetstoreClient's options: openapi-fetch's, the base URL required, and the API key. */
export interface PetstoreClientOptions extends ClientOptions {
  /** Where the API is, its version prefix included: "http://localhost:3000/v1". */
  readonly baseUrl: string;
  /** Sent with every request as `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string;
}

/**
 * A typed client of the Petstore API, generated from openapi/petstore.openapi.json:
 * `createPetstoreClient({ baseUrl: 'http://localhost:3000/v1', apiKey })`, or
 * `createPetstoreClient(baseUrl, apiKey, options?)`.
 *
 * int64 values (`format: int64` in the document: ids, category ids, `petId`, `after`) are
 * `bigint`, exact over the whole int64 range, both ways: response bodies are parsed so that
 * exactly those fields are bigint (every other number, such as an Error's `status`, stays a
 * number), and request bodies and parameters are written as exact digits. A `bodySerializer`
 * given in `options` replaces the exact one.
 */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient;
export function createPetstoreClient(baseUrl: string, apiKey: string, options?: Omit<ClientOptions, 'baseUrl'>): PetstoreClient;
export function createPetstoreClient(
  first: PetstoreClientOptions | string,
  key?: string,
  rest: Omit<ClientOptions, 'baseUrl'> = {},
): PetstoreClient {
  const { apiKey, ...options } = typeof first === 'string' ? { ...rest, baseUrl: first, apiKey: key ?? '' } : first;
  const client = createClient<paths>({
    // JSON.stringify throws on bigint. Path and query parameters need nothing: openapi-fetch
    // writes them with encodeURIComponent, which gives a bigint's exact digits.
    bodySerializer: stringifyExactJson,
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${apiKey}` },
  });
  return withExactJsonBodies(client, int64Locations);
}
