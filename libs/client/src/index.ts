import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/petstore';

export type { components, operations, paths } from './generated/petstore';
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type PetstoreError = components['schemas']['Error'];

export type PetstoreClient = Client<paths>;

/**
 * A typed client of the Petstore API, generated from openapi/petstore.openapi.json.
 * `baseUrl` includes the version prefix, e.g. "http://localhost:3000/v1". Note that JSON
 * numbers are parsed as JavaScript numbers: ids above 2^53 lose precision here.
 */
export function createPetstoreClient(baseUrl: string, apiKey: string, options: Omit<ClientOptions, 'baseUrl'> = {}): PetstoreClient {
  return createClient<paths>({ ...options, baseUrl, headers: { ...options.headers, authorization: `Bearer ${apiKey}` } });
}
