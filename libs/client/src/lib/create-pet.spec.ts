import { createPetstoreClient } from '../index';
import { createPet, CreatePetError, type CreatePetOptions, retryAfterMs, retryDelayMs } from './create-pet';

const MAX = 9223372036854775807n;
const PET = `{"id":${MAX},"name":"Rex","categoryId":${MAX},"status":"available"}`;
const NEW_PET = { name: 'Rex', categoryId: MAX };
const UUID = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

/** One answer of the stubbed service: a status with a JSON body and headers, or a network error. */
type Answer = { status: number; body?: string; headers?: Record<string, string> } | Error;

interface Sent {
  readonly key: string | null;
  readonly body: string;
}

const error = (status: number, code: string) => JSON.stringify({ code, message: code.toLowerCase(), status });

/** A client whose fetch gives these answers in turn, recording what each attempt sent, and the waits createPet asked for. */
function serviceAnswering(...answers: Answer[]) {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({ key: request.headers.get('idempotency-key'), body: await request.text() });
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    if (answer instanceof Error) throw answer;
    return new Response(answer.body ?? null, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  };
  const options: CreatePetOptions = { sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
  return { petstore: createPetstoreClient('http://petstore.test/v1', 'key', { fetch }), sent, waits, options };
}

describe('createPet', () => {
  it('sends a new UUID as the Idempotency-Key (a structured-field string) and returns the pet, int64 values exact', async () => {
    const { petstore, sent, options } = serviceAnswering({ status: 201, body: PET });
    await expect(createPet(petstore, NEW_PET, options)).resolves.toEqual({ id: MAX, name: 'Rex', categoryId: MAX, status: 'available' });
    expect(sent).toHaveLength(1);
    expect(sent[0].key).toMatch(UUID);
    expect(sent[0].body).toBe(`{"name":"Rex","categoryId":${MAX}}`);
  });

  it('draws a new key for every pet', async () => {
    const { petstore, sent, options } = serviceAnswering({ status: 201, body: PET }, { status: 201, body: PET });
    await createPet(petstore, NEW_PET, options);
    await createPet(petstore, NEW_PET, options);
    expect(sent[0].key).not.toBe(sent[1].key);
  });

  it('uses the key it is given', async () => {
    const { petstore, sent, options } = serviceAnswering({ status: 201, body: PET });
    await createPet(petstore, NEW_PET, { ...options, idempotencyKey: 'order-42' });
    expect(sent[0].key).toBe('"order-42"');
  });

  it('retries network errors, 409, 503 and a write of unknown outcome with the same key and body, and returns the pet the service created once', async () => {
    const { petstore, sent, options } = serviceAnswering(
      new TypeError('fetch failed'),
      { status: 503, body: error(503, 'SERVICE_UNAVAILABLE'), headers: { 'retry-after': '5' } },
      { status: 500, body: error(500, 'WRITE_OUTCOME_UNKNOWN') },
      { status: 409, body: error(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'), headers: { 'retry-after': '1' } },
      { status: 201, body: PET, headers: { 'idempotent-replayed': 'true' } },
    );
    await expect(createPet(petstore, NEW_PET, options)).resolves.toEqual({ id: MAX, name: 'Rex', categoryId: MAX, status: 'available' });
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map(({ key }) => key)).size).toBe(1);
    expect(new Set(sent.map(({ body }) => body)).size).toBe(1);
  });

  it('waits longer each time, with jitter, and never less than Retry-After asks', async () => {
    const { petstore, waits, options } = serviceAnswering(
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      { status: 503, body: error(503, 'SERVICE_UNAVAILABLE'), headers: { 'retry-after': '5' } },
      { status: 201, body: PET },
    );
    await createPet(petstore, NEW_PET, { ...options, baseDelayMs: 100 });
    // Half (random 0.5) of 100, 200, 400, 800 ms; the 503's Retry-After: 5 s wins over its 400.
    expect(waits).toEqual([50, 100, 200, 5000]);
  });

  it.each([
    [400, 'VALIDATION_FAILED'],
    [401, 'UNAUTHORIZED'],
    [422, 'IDEMPOTENCY_KEY_REUSED'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
  ])('gives up at once on %i, with the Error body', async (status, code) => {
    const { petstore, sent, options } = serviceAnswering({ status, body: error(status, code) });
    const failure = await createPet(petstore, NEW_PET, options).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(CreatePetError);
    expect(failure).toMatchObject({ status, body: { code, status } });
    expect(sent).toHaveLength(1);
  });

  it('gives up after maxAttempts, with the last failure', async () => {
    const busy = { status: 409, body: error(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'), headers: { 'retry-after': '1' } };
    const { petstore, sent, options } = serviceAnswering(new TypeError('fetch failed'), busy, busy);
    const failure = await createPet(petstore, NEW_PET, { ...options, maxAttempts: 3 }).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ name: 'CreatePetError', status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } });
    expect(sent).toHaveLength(3);
  });

  it('says the service could not be reached when every attempt failed on the network, keeping the cause', async () => {
    const cause = new TypeError('fetch failed');
    const { petstore, options } = serviceAnswering(cause, cause);
    const failure = (await createPet(petstore, NEW_PET, { ...options, maxAttempts: 2 }).catch(
      (caught: unknown) => caught,
    )) as CreatePetError;
    expect(failure.status).toBeUndefined();
    expect(failure.message).toBe('createPet: the service could not be reached');
    expect(failure.cause).toBe(cause);
  });

  it('stops when the caller aborts, without another attempt', async () => {
    const controller = new AbortController();
    const { petstore, sent } = serviceAnswering(new TypeError('fetch failed'), { status: 201, body: PET });
    const aborting = createPet(petstore, NEW_PET, { sleep: async () => controller.abort(new Error('stop')), signal: controller.signal });
    await expect(aborting).rejects.toThrow();
    expect(sent).toHaveLength(1);
  });
});

describe('retryDelayMs', () => {
  it('draws from 0 up to base × 2^(attempt − 1), capped at maxDelayMs', () => {
    const delay = (attempt: number, random: number) =>
      retryDelayMs(attempt, undefined, { baseDelayMs: 100, maxDelayMs: 1000, random: () => random });
    expect([1, 2, 3, 4, 5, 10].map((attempt) => delay(attempt, 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(delay(3, 0)).toBe(0);
  });

  it('waits at least what Retry-After asks, but no more than maxDelayMs', () => {
    expect(retryDelayMs(1, 5000, { random: () => 0 })).toBe(5000);
    expect(retryDelayMs(1, 60_000, { maxDelayMs: 10_000, random: () => 0 })).toBe(10_000);
  });
});

describe('retryAfterMs', () => {
  it.each([
    ['1', 1000],
    [' 5 ', 5000],
    ['0', 0],
    ['Thu, 01 Jan 1970 00:00:03 GMT', 3000],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
  ])('reads %p as %i ms', (header, ms) => {
    expect(retryAfterMs(header, 0)).toBe(ms);
  });

  it.each([null, 'soon', '-1', '1.5'])('reads %p as nothing', (header) => {
    expect(retryAfterMs(header, 0)).toBeUndefined();
  });
});
