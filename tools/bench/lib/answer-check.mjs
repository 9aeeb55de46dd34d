// Before a case is measured: the parity baseline must answer its request as the service does,
// or service/parity would compare different work. One request to each: same status, same header
// names, same header values and body, but for the numbers that differ from one answer to the
// next (remaining quota, new ids), which are masked. The Nest floor has none of the service's
// headers: it is held to the bare baseline's status, body and Location only.
import { randomUUID } from 'node:crypto';
import { CREATE_BODY } from './load.mjs';

// Differ on every answer, whoever sends it: only their presence is compared.
const PER_ANSWER = new Set(['date', 'x-request-id']);
// Compared with their numbers masked: counts and new ids, and the service's keep-alive time-out
// (a setting of the server, no work per answer).
const COUNTING = new Set(['ratelimit', 'location', 'content-length', 'keep-alive']);

const masked = (text) => text.replace(/\d+/g, '#');

const sameValue = (name, want, got) => (COUNTING.has(name) ? masked(want) === masked(got) : want === got);

const creates = (request) => request.kind === 'create' || request.kind === 'create-keyed';

async function answer(baseUrl, request, headers) {
  // create-keyed: a key of its own for each request, as the load sends, so that both create.
  const key = request.kind === 'create-keyed' ? { 'idempotency-key': randomUUID() } : {};
  const init = creates(request)
    ? { method: 'POST', headers: { ...headers, ...key, 'content-type': 'application/json' }, body: CREATE_BODY }
    : { headers };
  const response = await fetch(baseUrl + request.path, init);
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

function differences(expected, actual, request) {
  const found = [];
  if (expected.status !== actual.status) found.push(`status ${actual.status} instead of ${expected.status}`);
  const names = new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)]);
  for (const name of [...names].sort()) {
    const [want, got] = [expected.headers[name], actual.headers[name]];
    if (got === undefined) found.push(`missing header ${name}: ${want}`);
    else if (want === undefined) found.push(`extra header ${name}: ${got}`);
    else if (!PER_ANSWER.has(name) && !sameValue(name, want, got)) found.push(`header ${name}: "${got}" instead of "${want}"`);
  }
  // A GET reads the same rows from both; a POST creates a pet with another id.
  const [want, got] = creates(request) ? [masked(expected.body), masked(actual.body)] : [expected.body, actual.body];
  if (want !== got) found.push(`body ${got.slice(0, 200)} instead of ${want.slice(0, 200)}`);
  return found;
}

/** Status, Content-Type, Location (numbers masked) and body: what an answer says, without the headers a feature adds. */
function bodyDifferences(expected, actual, request) {
  const found = [];
  if (expected.status !== actual.status) found.push(`status ${actual.status} instead of ${expected.status}`);
  for (const name of ['content-type', 'location']) {
    const [want, got] = [expected.headers[name] ?? '(none)', actual.headers[name] ?? '(none)'];
    if (masked(want) !== masked(got)) found.push(`header ${name}: "${got}" instead of "${want}"`);
  }
  const [want, got] = creates(request) ? [masked(expected.body), masked(actual.body)] : [expected.body, actual.body];
  if (want !== got) found.push(`body ${got.slice(0, 200)} instead of ${want.slice(0, 200)}`);
  return found;
}

async function assertAnswer(reference, target, request, headers, compare) {
  const [expected, actual] = [await answer(reference.url, request, headers), await answer(target.url, request, headers)];
  const found = compare(expected, actual, request);
  if (found.length === 0) return;
  throw new Error(`${target.name} does not answer ${request.path} as the ${reference.name} does:\n  ${found.join('\n  ')}`);
}

/** Throws, listing every difference, when `target` does not answer `request` as `reference` does. */
export async function assertSameAnswer(reference, target, request, headers) {
  await assertAnswer(reference, target, request, headers, differences);
}

/** Throws when `target` does not answer `request` with the status, body and Location `reference` gives (any other header aside). */
export async function assertSameBody(reference, target, request, headers) {
  await assertAnswer(reference, target, request, headers, bodyDifferences);
}
