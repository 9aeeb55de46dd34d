import { createPetstoreClient } from '../index';
import { walkPets, WalkPetsError } from './walk-pets';

const MAX = 9223372036854775807n;
const pet = (id: bigint | number) => `{"id":${id},"name":"Rex","categoryId":${MAX},"status":"sold"}`;

/** One page the stubbed service answers: its pets' ids and its Link header, or an error. */
type Page = { ids: Array<bigint | number>; link?: string } | { status: number; body: string };

/** A client whose fetch answers these pages in turn, recording the URL of every request. */
function serviceAnswering(...pages: Page[]) {
  const sent: string[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push(request.url);
    const page = pages.shift();
    if (!page) throw new Error('no more pages');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if ('status' in page) return new Response(page.body, { status: page.status, headers });
    if (page.link) headers.link = page.link;
    return new Response(`[${page.ids.map(pet).join(',')}]`, { status: 200, headers });
  };
  return { petstore: createPetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'key', fetch }), sent };
}

async function idsOf(pets: AsyncIterable<{ id: bigint }>): Promise<bigint[]> {
  const ids: bigint[] = [];
  for await (const { id } of pets) ids.push(id);
  return ids;
}

describe('walkPets', () => {
  it('yields every pet of every page, following rel="next" until a page has no link, int64 values exact', async () => {
    const { petstore, sent } = serviceAnswering(
      { ids: [1, 2], link: '</v1/pets?limit=2&status=sold&after=2>; rel="next"' },
      { ids: [3, MAX], link: `</v1/pets?limit=2&status=sold&after=${MAX}>; rel="next"` },
      { ids: [] },
    );
    const pets = [];
    for await (const one of walkPets(petstore, { limit: 2, status: 'sold' })) pets.push(one);
    expect(pets.map(({ id }) => id)).toEqual([1n, 2n, 3n, MAX]);
    expect(pets[3]).toEqual({ id: MAX, name: 'Rex', categoryId: MAX, status: 'sold' });
    expect(sent).toEqual([
      'http://petstore.test/v1/pets?limit=2&status=sold',
      'http://petstore.test/v1/pets?limit=2&status=sold&after=2',
      `http://petstore.test/v1/pets?limit=2&status=sold&after=${MAX}`,
    ]);
  });

  it('starts after the id it is given, and lists with the service defaults when given nothing', async () => {
    const started = serviceAnswering({ ids: [8] });
    expect(await idsOf(walkPets(started.petstore, { after: 7n }))).toEqual([8n]);
    expect(started.sent).toEqual(['http://petstore.test/v1/pets?after=7']);
    const plain = serviceAnswering({ ids: [1] });
    expect(await idsOf(walkPets(plain.petstore))).toEqual([1n]);
    expect(plain.sent).toEqual(['http://petstore.test/v1/pets']);
  });

  it("asks for the next page through the client's own base URL, with the link's query (a proxy may serve the API under another path)", async () => {
    const { petstore, sent } = serviceAnswering(
      { ids: [1], link: '<https://elsewhere.test/other/v1/pets?limit=1&after=1>; rel="next"' },
      { ids: [] },
    );
    await idsOf(walkPets(petstore, { limit: 1 }));
    expect(sent[1]).toBe('http://petstore.test/v1/pets?limit=1&after=1');
  });

  it('finds the next link among other links and relation types (RFC 8288)', async () => {
    const { petstore, sent } = serviceAnswering(
      { ids: [1], link: '</v1/pets>; rel="first", </v1/pets?limit=1&after=1>; rel="prefetch NEXT"' },
      { ids: [2], link: '</v1/pets?limit=1>; rel="first"' },
    );
    expect(await idsOf(walkPets(petstore, { limit: 1 }))).toEqual([1n, 2n]);
    expect(sent).toHaveLength(2);
  });

  it('asks for a page only when the pets before it have been taken', async () => {
    const { petstore, sent } = serviceAnswering(
      { ids: [1, 2], link: '</v1/pets?limit=2&after=2>; rel="next"' },
      { ids: [3, 4], link: '</v1/pets?limit=2&after=4>; rel="next"' },
    );
    for await (const { id } of walkPets(petstore, { limit: 2 })) if (id === 2n) break;
    expect(sent).toHaveLength(1);
  });

  it('throws a WalkPetsError with the status and Error body of a page that fails, after the pets before it', async () => {
    const { petstore } = serviceAnswering(
      { ids: [1], link: '</v1/pets?limit=1&after=1>; rel="next"' },
      { status: 429, body: '{"code":"RATE_LIMITED","message":"Too many requests","status":429}' },
    );
    const ids: bigint[] = [];
    const failure = await (async () => {
      for await (const { id } of walkPets(petstore, { limit: 1 })) ids.push(id);
    })().catch((caught: unknown) => caught);
    expect(ids).toEqual([1n]);
    expect(failure).toBeInstanceOf(WalkPetsError);
    expect(failure).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMITED', status: 429 },
      message: 'walkPets: 429 RATE_LIMITED Too many requests',
    });
  });
});
