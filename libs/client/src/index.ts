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

export type PetstoreClient = Client<paths>;

/**
 * A typed client of the Petstore API, generated from openapi/petstore.openapi.json.
 * `baseUrl` includes the version prefix, e.g. "http://localhost:3000/v1".
 *
 * int64 values (`format: int64` in the document: ids, category ids, `petId`, `after`) are
 * `bigint`, exact over the whole int64 range, both ways: response bodies are parsed so that
 * exactly those fields are bigint (every other number, such as an Error's `status`, stays a
 * number), and request bodies and parameters are written as exact digits. A `bodySerializer`
 * given in `options` replaces the exact one.
 */
export function createPetstoreClient(baseUrl: string, apiKey: string, options: Omit<ClientOptions, 'baseUrl'> = {}): PetstoreClient {
  const client = createClient<paths>({
    // JSON.stringify throws on bigint. Path and query parameters need nothing: openapi-fetch
    // writes them with encodeURIComponent, which gives a bigint's exact digits.
    bodySerializer: stringifyExactJson,
    ...options,
    baseUrl,
    headers: { ...options.headers, authorization: `Bearer ${apiKey}` },
  });
  return withExactJsonBodies(client, int64Locations);
}
