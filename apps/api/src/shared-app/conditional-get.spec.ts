import { type ApiResponse, call, type CallOptions, type ListedPet, nextLink } from '../testing/http';
import { AUTH, sharedApp, type InProcessApp } from '../testing/in-process-app';

// Conditional GET (RFC 9110, section 13) on getPet and listPets, on the real application: an ETag
// on every 200, If-None-Match answered 304 with the 200's headers and no body, a new ETag when the
// pet or the page changes, and Cache-Control on every answer. Every answer of a documented
// operation is checked against the committed document by `call`.

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

/** A strong entity-tag (RFC 9110, section 8.8.3): an opaque string in double quotes. */
const ENTITY_TAG = /^"[\x21\x23-\x7e]+"$/;
/** The headers that differ from one answer to the next whoever sends them, or describe a body a 304 does not have. */
const PER_ANSWER = new Set(['date', 'content-type', 'content-length', 'connection', 'keep-alive']);

const get = (path: string, options: CallOptions = {}) => call(petstore, 'GET', path, options);
const ifNoneMatch = (path: string, value: string, options: CallOptions = {}) =>
  get(path, { ...options, headers: { ...options.headers, 'if-none-match': value } });

async function createPet(name: string): Promise<ListedPet> {
  const created = await call(petstore, 'POST', '/v1/pets', { json: { name, categoryId: 7 } });
  expect(created.status).toBe(201);
  return created.body as ListedPet;
}

/** The 200's headers as a 304 must repeat them, the body's own left out; the quota's count and seconds to reset masked (a second may pass). */
function repeatable(response: ApiResponse): Record<string, string> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)));
  return { ...headers, ratelimit: headers['ratelimit']?.replace(/r=\d+/, 'r=#').replace(/t=\d+/, 't=#') };
}

function expectNotModified(response: ApiResponse, fresh: ApiResponse): void {
  expect({ status: response.status, body: response.text }).toEqual({ status: 304, body: '' });
  expect(repeatable(response)).toEqual(repeatable(fresh));
  expect(response.headers.get('content-type')).toBeNull();
}

describe('conditional GET', () => {
  let pet: ListedPet;
  let petPath: string;
  beforeAll(async () => {
    pet = await createPet('Etag');
    petPath = `/v1/pets/${pet.id}`;
  });

  describe('an ETag on every 200', () => {
    it('of getPet: the same for the same pet, with Cache-Control private, no-cache', async () => {
      const [first, second] = [await get(petPath), await get(petPath)];
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toMatch(ENTITY_TAG);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
    });

    it('of listPets: the same for the same page, and another for another page', async () => {
      const page = `/v1/pets?limit=1&after=${pet.id - 1}`;
      const [first, second] = [await get(page), await get(page)];
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toMatch(ENTITY_TAG);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      expect((await get(`/v1/pets?limit=1&after=${pet.id}`)).headers.get('etag')).not.toBe(first.headers.get('etag'));
    });
  });

  describe('If-None-Match that matches: 304, no body, the headers a 200 carries', () => {
    const requestId = { 'x-request-id': 'conditional-get-test' };

    it("getPet: deprecation, rate limit, request id, the ETag and Cache-Control, as on the 200's", async () => {
      const fresh = await get(petPath, { headers: requestId });
      const notModified = await ifNoneMatch(petPath, fresh.headers.get('etag')!, { headers: requestId });
      expectNotModified(notModified, fresh);
      for (const header of ['deprecation', 'sunset', 'link', 'ratelimit-policy', 'ratelimit', 'x-request-id', 'etag', 'cache-control']) {
        expect({ [header]: notModified.headers.has(header) }).toEqual({ [header]: true });
      }
    });

    it('listPets: a full page keeps its Link to the next one', async () => {
      await createPet('Etag next');
      const page = `/v1/pets?limit=1&after=${pet.id - 1}`;
      const fresh = await get(page, { headers: requestId });
      expect(nextLink(fresh)).toBeDefined();
      const notModified = await ifNoneMatch(page, fresh.headers.get('etag')!, { headers: requestId });
      expectNotModified(notModified, fresh);
      expect(nextLink(notModified)).toBe(nextLink(fresh));
    });

    it.each([
      ['the tag as sent', (tag: string) => tag],
      ['its weak form (weak comparison)', (tag: string) => `W/${tag}`],
      ['a list holding it', (tag: string) => `"elsewhere", W/"other" ,${tag}`],
      ['the header sent twice, the second holding it', (tag: string) => ['"elsewhere"', tag]],
      ['*', () => '*'],
    ])('%s', async (_name, value) => {
      const fresh = await get(petPath);
      const notModified = await get(petPath, { headers: { 'if-none-match': value(fresh.headers.get('etag')!) } });
      expect(notModified.status).toBe(304);
    });
  });

  describe('If-None-Match that does not match: the 200, with its body', () => {
    it.each([
      ['another tag', () => '"elsewhere"'],
      ['the tag unquoted', (tag: string) => tag.slice(1, -1)],
      ['the tag inside another', (tag: string) => `"x${tag.slice(1, -1)}"`],
      ['an empty value', () => ''],
      ['* in a list', () => '"elsewhere", *'],
    ])('%s', async (_name, value) => {
      const fresh = await get(petPath);
      const answer = await ifNoneMatch(petPath, value(fresh.headers.get('etag')!));
      expect({ status: answer.status, body: answer.text }).toEqual({ status: 200, body: fresh.text });
      expect(answer.headers.get('etag')).toBe(fresh.headers.get('etag'));
    });
  });

  describe('a change gives a new ETag and a 200', () => {
    it('a changed pet', async () => {
      const changing = await createPet('Before');
      const path = `/v1/pets/${changing.id}`;
      const before = await get(path);
      await petstore.sql('UPDATE pets SET name = $1 WHERE id = $2', ['After', changing.id]);
      const after = await ifNoneMatch(path, before.headers.get('etag')!);
      expect(after.status).toBe(200);
      expect((after.body as ListedPet).name).toBe('After');
      expect(after.headers.get('etag')).toMatch(ENTITY_TAG);
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    });

    it('a changed pet on a page, and a pet added within it', async () => {
      const first = await createPet('Page');
      const page = `/v1/pets?limit=100&after=${first.id - 1}`;
      const before = await get(page);
      await petstore.sql('UPDATE pets SET status = $1 WHERE id = $2', ['sold', first.id]);
      const changed = await ifNoneMatch(page, before.headers.get('etag')!);
      expect(changed.status).toBe(200);
      await createPet('Page too');
      const added = await ifNoneMatch(page, changed.headers.get('etag')!);
      expect(added.status).toBe(200);
      expect((added.body as ListedPet[]).length).toBe((changed.body as ListedPet[]).length + 1);
      expect(new Set([before, changed, added].map((answer) => answer.headers.get('etag'))).size).toBe(3);
    });
  });

  describe('every other answer is not to be stored, and ignores If-None-Match', () => {
    it.each([
      ['a pet that does not exist (404)', '/v1/pets/999999999', 404],
      ['a malformed id (400)', '/v1/pets/abc', 400],
      ['a malformed query (400)', '/v1/pets?limit=0', 400],
    ])('%s', async (_name, path, status) => {
      const answer = await ifNoneMatch(path, '*');
      expect(answer.status).toBe(status);
      expect(answer.headers.get('etag')).toBeNull();
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it('without a key (401)', async () => {
      const answer = await ifNoneMatch(petPath, '*', { auth: false });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it('a create (201)', async () => {
      const answer = await call(petstore, 'POST', '/v1/pets', {
        json: { name: 'Etag create', categoryId: 7 },
        headers: { 'if-none-match': '*' },
      });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('etag')).toBeNull();
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('HEAD', () => {
    it("answers with the GET's ETag, and 304 to a match", async () => {
      const fresh = await get(petPath);
      const head = await call(petstore, 'HEAD', petPath);
      expect({ status: head.status, body: head.text, etag: head.headers.get('etag') }).toEqual({
        status: 200,
        body: '',
        etag: fresh.headers.get('etag'),
      });
      const notModified = await call(petstore, 'HEAD', petPath, { headers: { 'if-none-match': fresh.headers.get('etag')! } });
      expect({ status: notModified.status, body: notModified.text }).toEqual({ status: 304, body: '' });
      expect(notModified.headers.get('cache-control')).toBe('private, no-cache');
    });
  });

  it('over a socket, a 304 has neither body nor Content-Length', async () => {
    const url = `${await petstore.listen()}${petPath}`;
    const fresh = await fetch(url, { headers: AUTH });
    await fresh.arrayBuffer();
    const notModified = await fetch(url, { headers: { ...AUTH, 'if-none-match': fresh.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('content-length')).toBeNull();
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
  });
});
