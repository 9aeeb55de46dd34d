import { createPetstoreClient } from '../index';
import { getIfChanged } from './get-if-changed';

const MAX = 9223372036854775807n;
const PET = `{"id":${MAX},"name":"Rex","categoryId":${MAX},"status":"available"}`;
const ETAG = '"tag-1"';

/** A client whose fetch records the If-None-Match it was sent and answers `status` with `body` and an ETag. */
function clientAnswering(status: number, body: string | null, etag: string | null = ETAG) {
  const sent: Array<string | null> = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push(request.headers.get('if-none-match'));
    const headers: Record<string, string> = { ...(body === null ? {} : { 'content-type': 'application/json' }), ...(etag ? { etag } : {}) };
    return new Response(body, { status, headers });
  };
  return { petstore: createPetstoreClient('http://petstore.test/v1', 'key', { fetch }), sent };
}

describe('getIfChanged', () => {
  it('without an ETag: a plain GET, its data exact, and the ETag to keep', async () => {
    const { petstore, sent } = clientAnswering(200, PET);
    const answer = await getIfChanged(petstore, '/pets/{petId}', { params: { path: { petId: MAX } } });
    expect(sent).toEqual([null]);
    expect(answer).toMatchObject({ notModified: false, etag: ETAG, data: { id: MAX, name: 'Rex', categoryId: MAX, status: 'available' } });
  });

  it('with an ETag: sends it as If-None-Match, and a 304 comes back as notModified, without data or error', async () => {
    const { petstore, sent } = clientAnswering(304, null);
    const answer = await getIfChanged(petstore, '/pets', { params: { query: { limit: 5 } } }, ETAG);
    expect(sent).toEqual([ETAG]);
    expect(answer.notModified).toBe(true);
    expect({ etag: answer.etag, data: answer.data, error: answer.error, status: answer.response.status }).toEqual({
      etag: ETAG,
      data: undefined,
      error: undefined,
      status: 304,
    });
  });

  it('with an ETag that no longer holds: the new data and ETag', async () => {
    const { petstore } = clientAnswering(200, `[${PET}]`, '"tag-2"');
    const answer = await getIfChanged(petstore, '/pets', undefined, ETAG);
    expect(answer).toMatchObject({ notModified: false, etag: '"tag-2"', data: [{ id: MAX }] });
  });

  it('an error as openapi-fetch gives it, the Error body exact', async () => {
    const { petstore } = clientAnswering(404, '{"code":"PET_NOT_FOUND","message":"No pet with id 1","status":404}', null);
    const answer = await getIfChanged(petstore, '/pets/{petId}', { params: { path: { petId: 1n } } }, ETAG);
    expect(answer).toMatchObject({ notModified: false, etag: undefined, error: { code: 'PET_NOT_FOUND', status: 404 } });
  });

  it('keeps the other header parameters of init', async () => {
    const { petstore, sent } = clientAnswering(304, null);
    const init = { params: { path: { petId: 1n }, header: { 'If-None-Match': '"mine"' } } };
    expect((await getIfChanged(petstore, '/pets/{petId}', init)).notModified).toBe(true);
    expect(sent).toEqual(['"mine"']);
  });
});
