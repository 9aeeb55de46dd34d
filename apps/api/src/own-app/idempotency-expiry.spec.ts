import { randomUUID } from 'node:crypto';
import { type ApiResponse, call } from '../testing/http';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// Keys expire: the records are removed in the background and the key is free again, on the real
// application in process (a lifetime of 1 s, in an app of its own).

const idOf = (response: ApiResponse) => BigInt(/"id":(\d+)/.exec(response.text)![1]);

function expectCreated(response: ApiResponse): void {
  expect(response.status).toBe(201);
  expect(response.headers.get('idempotent-replayed')).toBeNull();
  expect(response.headers.get('location')).toBe(`/v1/pets/${idOf(response)}`);
}

describe('Idempotency-Key records expiring', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({ IDEMPOTENCY_KEY_LIFETIME_SECONDS: '1' });
  });
  afterAll(() => petstore?.close());

  it('removes expired records in the background; an expired key is free again', async () => {
    const key = randomUUID();
    const json = { name: `Expiring-${key.slice(0, 8)}`, categoryId: 8 };
    const post = () => call(petstore, 'POST', '/v1/pets', { json, headers: { 'idempotency-key': key } });
    const first = await post();
    expectCreated(first);

    // A lifetime of 1 s is swept every second: the record itself is asked for, on either database.
    const swept = async () => (await petstore.sql('SELECT 1 FROM idempotency_records WHERE idempotency_key = $1', [key])).length === 0;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(await swept())) await new Promise((done) => setTimeout(done, 100));
    expect(await swept()).toBe(true);

    const again = await post();
    expectCreated(again);
    expect(idOf(again)).not.toBe(idOf(first));
  });
});
