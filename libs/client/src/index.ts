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

/** A typed Petstore API client; int64 values are exact `bigint` both ways. A `bodySerializer` in `options` replaces the exact one. */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient;
export function createPetstoreClient(baseUrl: string, apiKey: string, options?: Omit<ClientOptions, 'baseUrl'>): PetstoreClient;
export function createPetstoreClient(
  first: PetstoreClientOptions | string,
  key?: string,
  rest: Omit<ClientOptions, 'baseUrl'> = {},
): PetstoreClient {
  const { apiKey, ...options } = typeof first === 'string' ? { ...rest, baseUrl: first, apiKey: key ?? '' } : first;
  const client = createClient<paths>({
    // JSON.stringify throws on bigint; parameters need nothing (encodeURIComponent writes a bigint's digits).
    bodySerializer: stringifyExactJson,
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${apiKey}` },
  });
  return withExactJsonBodies(client, int64Locations);
}
