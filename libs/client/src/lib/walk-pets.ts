import LinkHeader from 'http-link-header';
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from '../generated/petstore';

type Pet = components['schemas']['Pet'];
type PetstoreError = components['schemas']['Error'];

/** listPets's query: `limit` (pets per page), `status`, and `after` (the id to start after, e.g. to resume a walk). */
export type WalkPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;

/** Why walkPets stopped: a page answered an error (its status and Error body). */
export class WalkPetsError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: PetstoreError,
  ) {
    super(message);
    this.name = 'WalkPetsError';
  }
}

/** Every pet of listPets in id order, page by page along `Link: rel="next"`; an error throws WalkPetsError (resume with `after`). */
export async function* walkPets(client: Client<paths>, query: WalkPetsQuery = {}): AsyncGenerator<Pet, void, undefined> {
  let page = await client.GET('/pets', { params: { query } });
  for (;;) {
    const { data, error, response } = page;
    if (data === undefined) {
      const body = error as PetstoreError | undefined;
      throw new WalkPetsError(`walkPets: ${response.status} ${body?.code ?? ''} ${body?.message ?? ''}`.trim(), response.status, body);
    }
    yield* data;
    const next = nextPageQuery(response.headers.get('link'));
    if (next === undefined) return;
    // Only the link's query, through this client's base URL: a proxy may serve the API under another path.
    page = await client.GET('/pets', { querySerializer: () => next });
  }
}

function nextPageQuery(header: string | null): string | undefined {
  const [next] = header ? LinkHeader.parse(header).rel('next') : [];
  // Any base resolves the target, relative or absolute: only its query is kept.
  return next && new URL(next.uri, 'http://base.invalid').search.slice(1);
}
