import fc from 'fast-check';
import type { ApiSurface, BodyField, SurfaceOperation, ValueKind } from './api-surface';

// Hostile HTTP/1.1 requests as bytes, for the fuzz test. Text here is a "byte string": one
// character per byte (latin1), so that invalid UTF-8, control characters and raw non-ASCII
// reach the socket exactly as generated.

/** A request as it goes on the wire, and the protocol rules it breaks. */
export interface FuzzRequest {
  readonly method: string;
  /** Request line and header block, CRLF CRLF included, as a byte string. */
  readonly head: string;
  /** Everything after the header block: the body as framed (or misframed). */
  readonly body: Buffer;
  /** The body's content, before framing. */
  readonly content: Buffer;
  /**
   * Protocol-level violations (RFC 9110/9112): on these alone may a server close the
   * connection without answering. Empty for a well-formed request, however odd its content.
   */
  readonly violations: readonly string[];
  /** The framing promises bytes that never come: the server learns the request's end only from the end of the stream. */
  readonly truncated: boolean;
}

type Header = readonly [name: string, value: string];

/** The bytes of a request's body, and how its framing headers describe them. */
interface Framed {
  readonly headers: readonly Header[];
  readonly content: Buffer;
  readonly bytes: Buffer;
  /** Set when the bytes disagree with the framing headers (too few, too many, bad chunks). */
  readonly mismatch?: string;
  /** Set when the bytes are fewer than the framing promises. */
  readonly truncated?: boolean;
}

interface RequestParts {
  readonly line: RequestLine;
  readonly version: string;
  readonly host: readonly Header[];
  readonly auth: readonly Header[];
  readonly contentType: readonly Header[];
  readonly other: readonly Header[];
  readonly framed: Framed;
}

interface RequestLine {
  readonly method: string;
  readonly target: string;
}

/** The parts of a request one can break at the protocol level. */
type Part = 'request line' | 'version' | 'host' | 'auth' | 'content type' | 'fields' | 'framing';
const PARTS: readonly Part[] = ['request line', 'version', 'host', 'auth', 'content type', 'fields', 'framing'];

export function wireBytes(request: FuzzRequest): Buffer {
  return Buffer.concat([Buffer.from(request.head, 'latin1'), request.body]);
}

/**
 * Every request the fuzz test sends, to the API `api` describes (apiSurfaceOf the committed
 * document: its operations, parameters and bodies) and the service's other routes. Three in four
 * keep to HTTP's syntax and framing (but for invalid percent-encodings in their targets), their
 * content as odd as it gets (paths, queries, keys, media types, bodies), and mostly carry the valid
 * key so that they reach validation; the fourth breaks the protocol in one part (request line,
 * version, Host, Authorization, Content-Type, other fields or framing).
 */
export function fuzzRequest(authority: string, apiKey: string, api: ApiSurface): fc.Arbitrary<FuzzRequest> {
  const broken = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...PARTS) });
  const routes = routesOf(api);
  return broken.chain((part) => requestParts(authority, apiKey, routes, part)).map(assemble);
}

function requestParts(authority: string, apiKey: string, api: Routes, broken: Part | undefined): fc.Arbitrary<RequestParts> {
  const pick = <T>(part: Part, wellFormed: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>) => (broken === part ? hostile : wellFormed);
  const others = fc.array(otherHeader(), { maxLength: 3 });
  const fields = fc.tuple(expectation(), cors(), others, pick('fields', fc.constant([]), invalidFields()));
  // The method decides whether a body is likely.
  return pick('request line', requestLine(api), hostileRequestLine(api)).chain((line) =>
    fc.record({
      line: fc.constant(line),
      version: pick('version', httpVersion(), hostileHttpVersion()),
      host: pick('host', hostHeaders(authority), hostileHostHeaders(authority)),
      auth: pick('auth', authorization(apiKey), repeatedAuthorization(apiKey)),
      contentType: pick('content type', contentType(), repeatedContentType()),
      other: fields.map((lists) => lists.flat()),
      framed: fc
        .tuple(payload(api, BODY_METHODS.includes(line.method)), pick('framing', framing(), misframing()))
        .map(([content, frame]) => ({ ...frame(content), content })),
    }),
  );
}

function assemble(parts: RequestParts): FuzzRequest {
  // Connection: close, so that every answer ends with the connection and none waits on keep-alive.
  const headers: Header[] = [...parts.host, ...parts.auth, ...parts.contentType, ...parts.other, ...parts.framed.headers];
  headers.push(['Connection', 'close']);
  const fields = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const { method, target } = parts.line;
  const head = `${method} ${target} ${parts.version}\r\n${fields}\r\n`;
  const violations = [...violationsOf(method, target, parts.version, headers)];
  if (parts.framed.mismatch) violations.push(parts.framed.mismatch);
  return { method, head, body: parts.framed.bytes, content: parts.framed.content, violations, truncated: parts.framed.truncated === true };
}

// ---------------------------------------------------------------------------------------------
// What HTTP/1.1 allows (RFC 9110, 9112, 3986): decides which requests a server may drop unanswered.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PCHAR = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})`;
const ORIGIN_FORM = new RegExp(String.raw`^(?:/${PCHAR}*)+(?:\?(?:${PCHAR}|[/?])*)?$`);
const ABSOLUTE_FORM = new RegExp(String.raw`^https?://[A-Za-z0-9.\-]+(?::\d+)?(?:/${PCHAR}*)*(?:\?(?:${PCHAR}|[/?])*)?$`);
const AUTHORITY_FORM = /^[A-Za-z0-9.\-]+:\d+$/;
const HOST_VALUE = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*(?::\d*)?$|^\[[0-9A-Fa-f:.]+\](?::\d*)?$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Fields that may appear once only (not lists): a repeat is ambiguous. */
const SINGLETONS = ['host', 'authorization', 'content-type', 'content-length', 'origin', 'access-control-request-method'];

function violationsOf(method: string, target: string, version: string, headers: readonly Header[]): string[] {
  return [
    ...requestLineViolations(method, target, version),
    ...fieldViolations(headers),
    ...framingViolations(version, headers),
    ...(version === 'HTTP/1.1' && !headers.some(([name]) => name.toLowerCase() === 'host') ? ['HTTP/1.1 without Host'] : []),
  ];
}

function requestLineViolations(method: string, target: string, version: string): string[] {
  const violations: string[] = [];
  if (!TOKEN.test(method)) violations.push('method is not a token');
  const form = targetForm(target);
  if (form === 'invalid' || (form === 'asterisk' && method !== 'OPTIONS')) violations.push('invalid request-target');
  if ((method === 'CONNECT') !== (form === 'authority')) violations.push('CONNECT goes with authority-form only');
  if (!/^HTTP\/1\.[01]$/.test(version)) violations.push('not HTTP/1.0 or 1.1');
  return violations;
}

/** The four forms of request-target RFC 9112 section 3.2 allows, or none. */
function targetForm(target: string): 'origin' | 'absolute' | 'authority' | 'asterisk' | 'invalid' {
  if (ORIGIN_FORM.test(target)) return 'origin';
  if (ABSOLUTE_FORM.test(target)) return 'absolute';
  if (AUTHORITY_FORM.test(target)) return 'authority';
  return target === '*' ? 'asterisk' : 'invalid';
}

function fieldViolations(headers: readonly Header[]): string[] {
  const violations: string[] = [];
  if (headers.some(([name, value]) => !TOKEN.test(name) || !FIELD_VALUE.test(value))) violations.push('invalid header field');
  const names = headers.map(([name]) => name.toLowerCase());
  const repeated = SINGLETONS.filter((singleton) => names.filter((name) => name === singleton).length > 1);
  if (repeated.length > 0) violations.push(`repeated ${repeated.join(', ')}`);
  const hosts = headers.filter(([name]) => name.toLowerCase() === 'host');
  if (hosts.some(([, value]) => !HOST_VALUE.test(value.trim()))) violations.push('invalid Host');
  return violations;
}

function framingViolations(version: string, headers: readonly Header[]): string[] {
  const values = (field: string) => headers.filter(([name]) => name.toLowerCase() === field).map(([, value]) => value.trim());
  const lengths = values('content-length');
  const codings = values('transfer-encoding');
  const violations: string[] = [];
  if (lengths.some((length) => !/^\d+$/.test(length))) violations.push('invalid Content-Length');
  if (codings.length > 0) {
    if (lengths.length > 0) violations.push('both Content-Length and Transfer-Encoding');
    if (version !== 'HTTP/1.1') violations.push('Transfer-Encoding before HTTP/1.1');
    const list = codings
      .join(',')
      .split(',')
      .map((coding) => coding.trim().toLowerCase());
    if (list.at(-1) !== 'chunked' || list.indexOf('chunked') !== list.length - 1) violations.push('chunked is not the one, final coding');
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------
// Request line.

/** The routes of the service that are not operations of the document (probes, docs, metrics). */
const SERVICE_ROUTES = [
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
  '/docs/',
  '/openapi.json',
  '/openapi.yaml',
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-init.js',
  '/',
];
const SERVICE_PREFIXES = ['', '/docs', '/docs/static', '/openapi.json', '/healthz'];
const SERVICE_SEGMENTS = ['docs', 'static', 'index.html', 'swagger-ui.css', 'swagger-ui-init.js', 'openapi.json'];

/** What the request lines, targets and bodies are made of, derived from the document's operations. */
interface Routes {
  readonly api: ApiSurface;
  /** Methods for any target: those of the operations three times, the others of a route once, OPTIONS twice. */
  readonly methods: readonly string[];
  /** Paths without parameters, each a few times and in the forms a router may mistake. */
  readonly routes: readonly string[];
  readonly prefixes: readonly string[];
  readonly segments: readonly string[];
  /** A path of the API without parameters, the one the odd target forms use. */
  readonly sample: string;
  readonly queryNames: readonly string[];
  readonly queryValues: readonly string[];
  /** The bodies of the operations that take one. */
  readonly bodies: ReadonlyArray<readonly BodyField[]>;
}

function routesOf(api: ApiSurface): Routes {
  const used = new Set(api.operations.map((operation) => operation.method));
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) =>
    Array.from({ length: used.has(method) && method !== 'HEAD' ? 3 : 1 }, () => method),
  );
  const plain = [...new Set(api.operations.map((operation) => operation.path).filter((path) => !path.includes('{')))];
  const sample = plain[0] ?? `${api.basePath}/`;
  const variants = (path: string) => [
    path,
    path,
    path,
    `${path}/`,
    `${path}?`,
    `/${path}`,
    path.replace(api.basePath, `${api.basePath}/`),
    path.toUpperCase(),
    `${path}/.`,
    `${path}/..`,
    `${path}/%2e%2e`,
  ];
  const paths = [...new Set(api.operations.map((operation) => operation.path))];
  const staticPrefixes = paths.map((path) => path.split('/{')[0]);
  const segments = [...new Set(paths.flatMap((path) => path.split('/')).filter((segment) => segment && !segment.startsWith('{')))];
  const queries = api.operations.flatMap((operation) => operation.queryParameters);
  const names = [...new Set(queries.map((query) => query.name))];
  const mangled = (name: string, index: number) =>
    [
      [`${name.slice(0, 2)}%${name.charCodeAt(2).toString(16).toUpperCase()}${name.slice(3)}`, `${name}[]`],
      [name.toUpperCase(), `${name}[0]`],
      [`${name}%00`, `${name}.`],
    ][index % 3];
  const enums = queries.flatMap((query) => (query.value.kind === 'enum' ? query.value.values : []));
  return {
    api,
    methods: [...methods, 'OPTIONS', 'OPTIONS'],
    routes: [...plain.flatMap(variants), api.basePath, ...SERVICE_ROUTES],
    prefixes: [
      ...new Set(['', api.basePath, ...staticPrefixes, ...SERVICE_PREFIXES, api.basePath.replace(/\d+$/, (n) => String(Number(n) + 1))]),
    ],
    segments: [...segments, ...SERVICE_SEGMENTS],
    sample,
    queryNames: [
      ...names.flatMap((name, index) => [name, name, ...mangled(name, index)]),
      'access_token',
      '__proto__',
      'constructor',
      '',
      'x',
    ],
    queryValues: [...enums, ...(enums.length > 0 ? [enums[enums.length - 1].toUpperCase(), `${enums[0]},${enums[enums.length - 1]}`] : [])],
    bodies: api.operations.flatMap((operation) => (operation.body ? [operation.body] : [])),
  };
}

/** Methods Node's parser knows but the routes do not serve. */
const OTHER_METHODS = ['TRACE', 'PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'SEARCH', 'M-SEARCH', 'SOURCE', 'LINK', 'UNLOCK'];
const TCHARS = [..."!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"];

/** Request lines of the other target forms, each with the one method that goes with it. */
function otherForms({ sample, queryNames }: Routes): RequestLine[] {
  return [
    { method: 'CONNECT', target: '127.0.0.1:80' },
    { method: 'OPTIONS', target: '*' },
    { method: 'GET', target: `http://127.0.0.1${sample}` },
    { method: 'POST', target: `http://evil.example.com${sample}?${queryNames[0] || 'x'}=1` },
  ];
}

/** An operation's method (GET as GET or HEAD) and a target for it: its path, hostile parameter values, a query. */
function operationLine(routes: Routes, operation: SurfaceOperation): fc.Arbitrary<RequestLine> {
  const method = operation.method === 'GET' ? fc.constantFrom('GET', 'GET', 'HEAD') : fc.constant(operation.method);
  const values = fc.tuple(...operation.pathParameters.map(() => pathValue()));
  const path = values.map((list) =>
    operation.pathParameters.reduce((path, name, index) => path.replace(`{${name}}`, list[index]), operation.path),
  );
  const suffix = operation.queryParameters.length > 0 ? query(routes) : fc.oneof(fc.constantFrom('', '/'), query(routes));
  return fc.record({ method, target: fc.tuple(path, suffix).map(([p, q]) => p + q) });
}

function requestLine(routes: Routes): fc.Arbitrary<RequestLine> {
  const method = fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom(...routes.methods) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    // Tokens HTTP allows as methods, which no server knows.
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 10 }) },
  );
  // The operations half the time, so that most requests reach their validation.
  const operations = fc.oneof(...routes.api.operations.map((operation) => operationLine(routes, operation)));
  return fc.oneof(
    { weight: 20, arbitrary: operations },
    { weight: 20, arbitrary: fc.record({ method, target: requestTarget(routes) }) },
    { weight: 1, arbitrary: fc.constantFrom(...otherForms(routes)) },
  );
}

/** Targets HTTP does not allow, or not with these methods. */
function badTargets({ sample }: Routes): string[] {
  const last = sample.split('/').at(-1) ?? '';
  const parent = sample.slice(0, sample.length - last.length);
  return [
    '*',
    '127.0.0.1:80',
    '',
    sample.slice(1),
    `${sample}#fragment`,
    `${sample}\\..\\x`,
    ` ${sample}`,
    `${sample} HTTP/1.1`,
    `${sample.slice(0, -2)}\x00${sample.slice(-2)}`,
    `${sample}\x7f`,
    `${parent}"${last}"`,
    `${parent}<${last}>`,
    `/{${last}}`,
    `${sample}?x=1 2`,
    `${sample}\r\nX-Injected: 1`,
  ];
}

/** Methods that are not tokens, CONNECT without an authority, targets HTTP does not allow. */
function hostileRequestLine(routes: Routes): fc.Arbitrary<RequestLine> {
  const badMethod = fc.oneof(fc.constantFrom('G@T', 'GET\tX', '', 'GET GET', '\x00GET', 'GET\r\n', 'CONNECT'), byteString(8));
  const rawSegment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).map((text) => `${routes.sample}/${utf8(text)}`);
  const badTarget = fc.oneof(
    fc.constantFrom(...badTargets(routes)),
    rawSegment,
    byteString(12).map((bytes) => `${routes.sample}?${routes.queryNames[0] || 'x'}=${bytes}`),
  );
  return fc.oneof(
    fc.record({ method: badMethod, target: requestTarget(routes) }),
    fc.record({ method: fc.constantFrom(...routes.methods, 'CONNECT'), target: badTarget }),
  );
}

function httpVersion(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 15, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constant('HTTP/1.0') });
}

function hostileHttpVersion(): fc.Arbitrary<string> {
  return fc.constantFrom('HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', 'HTTP/11', 'HTTP/1.x', '', 'HTTP/1.1 x', 'HTTP/1.1\x00');
}

/** Values for a path parameter: ids at and past int64's edges, other numbers' spellings, encodings, words. */
const PATH_VALUES = [
  '1',
  '2',
  '0',
  '-1',
  '00001',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '1e3',
  '1.0',
  'abc',
  '%31',
  '%2531',
  '%20',
  '1%00',
  '1'.repeat(150),
  '0x1',
  '%EF%BC%91',
  'null',
  'undefined',
  '__proto__',
  'constructor',
];
const SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2e',
  '%2F',
  '%2f..',
  '..%2F',
  '%5C',
  '%5c..%5c',
  '%00',
  '%',
  '%z',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%C3%A9',
  '%F0%9F%90%B6',
  '%ff',
  '%fe%ff',
  '%ED%A0%80',
  ';',
  ';a=b',
  '~',
  '',
  'etc',
  'passwd',
  '__proto__',
  'constructor',
];

function pathValue(): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...PATH_VALUES), fc.bigInt({ min: 0n, max: 1n << 64n }).map(String));
}

function requestTarget(routes: Routes): fc.Arbitrary<string> {
  const segments = fc.array(segment(routes), { minLength: 1, maxLength: 5 });
  const withParameters = routes.api.operations.filter((operation) => operation.pathParameters.length > 0);
  const path = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...routes.routes) },
    ...(withParameters.length > 0
      ? [
          {
            weight: 6,
            arbitrary: fc.oneof(
              ...withParameters.map((operation) => operationLine(routes, operation).map((line) => line.target.split('?')[0])),
            ),
          },
        ]
      : []),
    {
      weight: 5,
      arbitrary: fc.tuple(fc.constantFrom(...routes.prefixes), segments).map(([prefix, list]) => `${prefix}/${list.join('/')}`),
    },
  );
  return fc.tuple(path, query(routes)).map(([p, q]) => p + q);
}

function segment(routes: Routes): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...SEGMENTS, ...routes.segments) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map((text) => percentEncoded(utf8(text))) },
    { weight: 1, arbitrary: fc.integer({ min: 256, max: 12_000 }).map((length) => 'a'.repeat(length)) },
  );
}

const QUERY_VALUES = [
  '',
  '0',
  '1',
  '20',
  '100',
  '101',
  '-1',
  '1e2',
  '+5',
  '%2B5',
  '05',
  '1.5',
  '%205',
  '%35',
  'abc',
  '9223372036854775807',
  '9223372036854775808',
  'NaN',
  'Infinity',
  '0x10',
  '%00',
  '%zz',
  '%',
  '%EF%BC%91',
  '1'.repeat(400),
  'true',
  'null',
  '[]',
];

function query(routes: Routes): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...QUERY_VALUES, ...routes.queryValues) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map((text) => percentEncoded(utf8(text))) },
  );
  const param = fc.tuple(fc.constantFrom(...routes.queryNames), fc.option(value, { freq: 8 }));
  const params = fc.array(param, { minLength: 1, maxLength: 5 }).map((list) => list.map(([n, v]) => (v === null ? n : `${n}=${v}`)));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.tuple(params, fc.constantFrom('&', '&', '&&', ';')).map(([list, separator]) => `?${list.join(separator)}`) },
  );
}

// ---------------------------------------------------------------------------------------------
// Header fields.

function hostHeaders(authority: string): fc.Arbitrary<readonly Header[]> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant([['Host', authority] as const]) },
    // Another name, odd spacing and case; an empty Host is allowed when the target has no authority.
    { weight: 1, arbitrary: fc.constantFrom<readonly Header[]>([['host', 'localhost']], [['HOST', `${authority}  `]], [['Host', '']]) },
  );
}

function hostileHostHeaders(authority: string): fc.Arbitrary<readonly Header[]> {
  return fc.constantFrom<readonly Header[]>(
    [],
    [
      ['Host', authority],
      ['Host', 'evil.example.com'],
    ],
    [['Host', 'a b']],
    [['Host', '[::1']],
    [['Host', 'example.com:80:80']],
    [['Host', 'exa\x7fmple.com']],
    [['Host', 'user@example.com']],
  );
}

function authorization(key: string): fc.Arbitrary<readonly Header[]> {
  return fc.oneof(
    { weight: 17, arbitrary: fc.constant([['Authorization', `Bearer ${key}`] as const]) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<readonly Header[]>(
        [],
        [['Authorization', 'Bearer wrong-key']],
        [['Authorization', 'Basic dXNlcjpwYXNz']],
        [['Authorization', 'Bearer']],
        [['Authorization', `Bearer  ${key}`]],
        [['Authorization', `bearer ${key}`]],
        [['Authorization', `Bearer ${key}x`]],
        [['Authorization', `Bearer ${'a'.repeat(5000)}`]],
        [['Authorization', `Bearer ps_0123456789ab_${'A'.repeat(43)}`]],
        [['Authorization', `Bearer ${key}\xff`]],
      ),
    },
  );
}

/** Authorization is no list: two are ambiguous, whichever one a server reads. */
function repeatedAuthorization(key: string): fc.Arbitrary<readonly Header[]> {
  return fc.constantFrom<readonly Header[]>(
    [
      ['Authorization', `Bearer ${key}`],
      ['Authorization', 'Bearer wrong-key'],
    ],
    [
      ['Authorization', 'Bearer wrong-key'],
      ['Authorization', `Bearer ${key}`],
    ],
    [
      ['Authorization', `Bearer ${key}`],
      ['authorization', `Bearer ${key}`],
    ],
  );
}

const MEDIA_TYPES = [
  'application/json',
  'application/json',
  'APPLICATION/JSON',
  'application/json;',
  'application/jsonx',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '*/*',
  '',
  'json',
  'application/json, text/plain',
  'application/json\xff',
];
const CHARSETS = [
  '',
  '',
  '',
  '; charset=utf-8',
  '; charset=UTF-8',
  '; charset="utf-8"',
  '; charset=latin1',
  '; charset=iso-8859-1',
  '; charset=utf-16',
  '; charset=utf-16le',
  '; charset=garbage',
  '; charset=',
  ';charset=utf-8;charset=latin1',
  '; boundary=x',
];

/** application/json mostly, so that most bodies get parsed; else any media type, any charset. */
const mediaType = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8') },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...MEDIA_TYPES), fc.constantFrom(...CHARSETS)).map((pair) => pair.join('')) },
  );

function contentType(): fc.Arbitrary<readonly Header[]> {
  return fc.oneof(
    { weight: 6, arbitrary: mediaType().map((type) => [['Content-Type', type] as const]) },
    { weight: 1, arbitrary: fc.constant([]) },
  );
}

function repeatedContentType(): fc.Arbitrary<readonly Header[]> {
  return fc.tuple(mediaType(), mediaType()).map(([a, b]) => [['Content-Type', a] as const, ['content-type', b] as const]);
}

/** Expect: 100-continue is the one expectation HTTP defines; any other must be refused (417). */
function expectation(): fc.Arbitrary<readonly Header[]> {
  const values = fc.constantFrom('100-continue', '100-Continue', '200-ok', 'foo', '', '100-continue, 200-ok');
  return fc.oneof({ weight: 8, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: values.map((value) => [['Expect', value] as const]) });
}

/** The origin the fuzzed server lets call it from a browser (its CORS_ORIGINS). */
export const ALLOWED_ORIGIN = 'https://app.example.com';

/** The fields of CORS requests and preflights, each present or not, from allowed and other origins. */
function cors(): fc.Arbitrary<readonly Header[]> {
  const origin = fc.constantFrom(ALLOWED_ORIGIN, 'https://evil.example.com', 'null', 'http://localhost', '*', 'app.example.com', '');
  const requestMethod = fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'get', '', 'G@T');
  const requestHeaders = fc.constantFrom('authorization,content-type', 'x-evil', '', 'authorization, content-type, x-request-id');
  const some = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { freq: 2 });
  const fields = fc
    .tuple(some(origin), some(requestMethod), some(requestHeaders))
    .map(([o, m, h]) => [
      ...(o === null ? [] : [['Origin', o] as const]),
      ...(m === null ? [] : [['Access-Control-Request-Method', m] as const]),
      ...(h === null ? [] : [['Access-Control-Request-Headers', h] as const]),
    ]);
  return fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fields });
}

function otherHeader(): fc.Arbitrary<Header> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 140 }).map((id) => ['X-Request-Id', id] as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Header>(
        ['Accept', 'application/json'],
        ['Accept', 'text/html'],
        ['Accept-Encoding', 'gzip, br'],
        ['Content-Encoding', 'gzip'],
        ['Content-Encoding', 'identity'],
        ['X-Forwarded-For', 'not-an-address'],
        ['X-HTTP-Method-Override', 'DELETE'],
        ['Range', 'bytes=0-1'],
        ['If-None-Match', '*'],
        ['Cookie', 'a=b'],
      ),
    },
    { weight: 4, arbitrary: fc.tuple(fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 20 }), fc.string()) },
    // Past Node's 16 KiB of header fields at times: 431.
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((length) => ['X-Filler', 'a'.repeat(length)] as const) },
  );
}

/** Field lines HTTP does not allow: bad names, control characters, obsolete line folding. */
function invalidFields(): fc.Arbitrary<readonly Header[]> {
  const invalid = fc.oneof(
    fc.constantFrom<Header>(
      ['X Bad', 'name'],
      ['', 'empty name'],
      ['X-Bad:', 'colon'],
      ['X-Nul', 'a\x00b'],
      ['X-Lf', 'a\nb'],
      ['X-Folded', 'a\r\n b'],
      ['X-Ctl', '\x1b[31m'],
      ['X-\xdcnicode', 'name'],
      ['Content-Type ', 'application/json'],
    ),
    byteString(20).map((id): Header => ['X-Request-Id', `\x01${id}`]),
  );
  return fc.array(invalid, { minLength: 1, maxLength: 2 });
}

// ---------------------------------------------------------------------------------------------
// Bodies: what the bytes are, then how they are framed.

/** Methods whose requests carry a body: mostly with one; the others mostly without. */
const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

function payload(routes: Routes, bodyExpected: boolean): fc.Arbitrary<Buffer> {
  // The bodies of the operations that take one; an object of one string field when none does.
  const shapes: ReadonlyArray<readonly BodyField[]> =
    routes.bodies.length > 0
      ? routes.bodies
      : [[{ name: 'name', required: true, value: { kind: 'string', minLength: 1, maxLength: 255 } }]];
  const some = <T>(of: (fields: readonly BodyField[]) => fc.Arbitrary<T>) => fc.oneof(...shapes.map(of));
  const first = shapes[0].find((field) => field.value.kind === 'string')?.name ?? shapes[0][0].name;
  return fc.oneof(
    { weight: bodyExpected ? 4 : 150, arbitrary: fc.constant(Buffer.alloc(0)) },
    { weight: 12, arbitrary: some(validBody).map((json) => Buffer.from(json)) },
    { weight: 20, arbitrary: encoded(some(bodyLike)) },
    { weight: 5, arbitrary: encoded(fc.json()) },
    { weight: 5, arbitrary: encoded(fc.jsonValue().map((value) => JSON.stringify(value))) },
    { weight: 16, arbitrary: encoded(some(deeplyNested)) },
    {
      weight: 4,
      arbitrary: encoded(fc.tuple(some(bodyLike), fc.nat()).map(([json, cut]) => json.slice(0, cut % Math.max(1, json.length)))),
    },
    { weight: 6, arbitrary: some(invalidUtf8) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constantFrom(' ', '\r\n', 'null', '"Rex"', '[]', '0', '\ufeff{}').map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.integer({ min: 65_000, max: 70_000 }).map((length) => Buffer.from(`{"${first}":"${'a'.repeat(length)}"}`)) },
  );
}

/** JSON text in UTF-8 mostly, else in another encoding the Content-Type may or may not admit. */
function encoded(json: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  const encodings = fc.oneof(
    { weight: 12, arbitrary: fc.constant((text: string) => Buffer.from(text, 'utf8')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        (text: string) => Buffer.from(`\ufeff${text}`, 'utf8'),
        (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le'),
        (text: string) => Buffer.from(text, 'utf16le'),
        (text: string) => Buffer.from(text, 'utf16le').swap16(),
        (text: string) => Buffer.from(text, 'latin1'),
      ),
    },
  );
  return fc.tuple(json, encodings).map(([text, encode]) => encode(text));
}

/** Values for a string field, as JSON text: empty, blank, at and past its length, control characters, lone surrogates, other types. */
function stringValues(maxLength: number): string[] {
  return [
    '"Rex"',
    '""',
    '" "',
    `"${'a'.repeat(maxLength)}"`,
    `"${'a'.repeat(maxLength + 1)}"`,
    `"${'🐶'.repeat(maxLength)}"`,
    '"\\u0000"',
    '"a\\nb"',
    '"Rex\\t"',
    '"\\ud800"',
    '"\\udc00x"',
    '"🐶"',
    '"\\u202eRex"',
    '"R\\u0000ex"',
    'null',
    '1',
    'true',
    '[]',
    '{}',
    '["Rex"]',
    '"\\uD83D\\uDC36"',
  ];
}
/** Values for an integer field (int64 unless it says otherwise), as JSON text: its edges and past them, other spellings, other types. */
function integerValues(min: bigint, max: bigint): string[] {
  return [
    '1',
    '0',
    '-1',
    String(max),
    String(max + 1n),
    String(min),
    String(min - 1n),
    '18446744073709551616',
    '1.0',
    '1.5',
    '1e2',
    '1E400',
    '-0',
    '-0.0',
    '"1"',
    'true',
    'null',
    '[]',
    '{}',
    '123456789012345678901234567890',
    '1' + '0'.repeat(400),
  ];
}
/** Values for an enum field, as JSON text: each value, one in other case or padded, other types. */
function enumValues(values: readonly string[]): string[] {
  const last = values[values.length - 1] ?? '';
  return [
    ...values.map((value) => JSON.stringify(value)),
    JSON.stringify(last.toUpperCase()),
    '""',
    'null',
    '1',
    JSON.stringify(`${values[0]} `),
    `[${JSON.stringify(last)}]`,
    '{"toString":1}',
  ];
}

function valuesOf(value: ValueKind): string[] {
  switch (value.kind) {
    case 'string':
      return stringValues(value.maxLength);
    case 'integer':
      return integerValues(value.min, value.max);
    case 'enum':
      return enumValues(value.values);
    case 'other':
      return ['null', '1', '"x"', '[]', '{}'];
  }
}

/** Arbitrary values beyond the listed ones for a field of this kind, as JSON text. */
function extraValue(value: ValueKind): fc.Arbitrary<string> {
  if (value.kind === 'string') return fc.string({ unit: 'binary', maxLength: 30 }).map((text) => JSON.stringify(text));
  if (value.kind === 'integer') return fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String);
  return fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v));
}

/** Keys that trip up JavaScript objects, and near misses of the body's own. */
function oddKeys(fields: readonly BodyField[]): string[] {
  const first = fields[0]?.name ?? 'name';
  return [
    '__proto__',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    '__defineGetter__',
    'isPrototypeOf',
    'id',
    ...fields.map((field) => field.name),
    '',
    `${first.slice(0, 1)}\u0430${first.slice(2)}`,
    `${first}\u0000`,
    first.toUpperCase(),
  ];
}

/** Objects near the body's shape: each field valid, odd or absent (optional ones more often), plus keys that trip up JavaScript. */
function bodyLike(fields: readonly BodyField[]): fc.Arbitrary<string> {
  const listed = fields.flatMap((field) => valuesOf(field.value));
  const value = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...listed, '{"x":1}', `{${JSON.stringify(fields[0]?.name ?? 'x')}:"Rex"}`, '{"__proto__":{}}'),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  );
  const member = (field: BodyField) => {
    const values = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...valuesOf(field.value)) },
      { weight: 1, arbitrary: extraValue(field.value) },
    );
    const present = fc.option(
      values.map((text) => [field.name, text] as const),
      { freq: 8 },
    );
    return field.required ? present : fc.option(present, { freq: 2 }).map((option) => option ?? null);
  };
  const members = fc.tuple(
    fc.tuple(...fields.map(member)),
    fc.array(fc.tuple(fc.constantFrom(...oddKeys(fields)), value), { maxLength: 3 }),
  );
  return members.map(([own, extras]) => objectText([...own.filter((entry) => entry !== null), ...extras]));
}

/** A valid value of a field, as JSON text. */
function validValue(value: ValueKind): fc.Arbitrary<string> {
  switch (value.kind) {
    case 'string':
      return fc
        .string({ unit: 'grapheme', minLength: Math.max(1, value.minLength), maxLength: Math.min(40, value.maxLength) })
        .filter((text) => !/\p{Cc}/u.test(text))
        .map((text) => JSON.stringify(text));
    case 'integer':
      return fc.bigInt({ min: value.min, max: value.max }).map(String);
    case 'enum':
      return fc.constantFrom(...value.values.map((v) => JSON.stringify(v)));
    case 'other':
      return fc.constant('null');
  }
}

/** A body the service must accept (a 201 for a create), so that the success path is fuzzed too and pets exist to get. */
function validBody(fields: readonly BodyField[]): fc.Arbitrary<string> {
  const member = (field: BodyField) => {
    const present = validValue(field.value).map((text) => [field.name, text] as const);
    return field.required ? present : fc.option(present, { freq: 3 });
  };
  return fc.tuple(...fields.map(member)).map((members) => objectText(members.filter((entry) => entry !== null)));
}

/** The smallest valid body, as members: each required field with a plain valid value. */
function plainMembers(fields: readonly BodyField[]): Array<readonly [string, string]> {
  const plain = (value: ValueKind) =>
    value.kind === 'string' ? '"Rex"' : value.kind === 'integer' ? '1' : value.kind === 'enum' ? JSON.stringify(value.values[0]) : 'null';
  return fields.filter((field) => field.required).map((field) => [field.name, plain(field.value)] as const);
}

/** An object written member by member, so that repeated keys and `__proto__` reach the wire as written. */
function objectText(members: readonly (readonly [string, string])[]): string {
  return `{${members.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** Arrays and objects nested a few levels deep, or thousands (past any recursion a parser or validator may do). */
function deeplyNested(fields: readonly BodyField[]): fc.Arbitrary<string> {
  // Deep enough to exhaust a recursive parser, validator or serializer, mostly within the 64 KiB a
  // body may have (13,000 objects, 32,000 arrays).
  const depth = fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }) },
    { weight: 4, arbitrary: fc.integer({ min: 1_000, max: 8_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 40_000 }) },
  );
  const shape = fc.constantFrom('array', 'object', 'mixed');
  const where = fc.constantFrom('alone', 'as an unknown member', ...fields.map((field) => `as ${field.name}`));
  const closed = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  return fc.record({ depth, shape, where, closed }).map(({ depth: levels, shape: kind, where: place, closed: balanced }) => {
    const open = (level: number) => (kind === 'array' || (kind === 'mixed' && level % 2 === 0) ? '[' : '{"a":');
    const close = (level: number) => (open(level) === '[' ? ']' : '}');
    const opens = Array.from({ length: levels }, (_, level) => open(level)).join('');
    const closes = balanced ? Array.from({ length: levels }, (_, level) => close(levels - 1 - level)).join('') : '';
    const nested = `${opens}${kind === 'array' ? '' : '1'}${closes}`;
    if (place === 'alone') return nested;
    const member = place === 'as an unknown member' ? 'extra' : place.slice('as '.length);
    return objectText(Object.entries({ ...Object.fromEntries(plainMembers(fields)), [member]: nested }));
  });
}

const BAD_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc3],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
];

/** A body whose bytes are not UTF-8: an overlong form, a lone surrogate, a truncated sequence, a stray byte, in a value, a key or between members. */
function invalidUtf8(fields: readonly BodyField[]): fc.Arbitrary<Buffer> {
  const members = plainMembers(fields).map(([key, value]) => `${JSON.stringify(key)}:${value}`);
  const text = `{${members.join(',')}}`;
  const firstString = members.findIndex((member) => /:"/.test(member));
  const places = [
    // Inside a string value, before its closing quote.
    ...(firstString >= 0 ? [text.indexOf(members[firstString]) + members[firstString].length - 1] : []),
    // Inside the first key.
    2,
    // Between two members, or before the closing brace.
    members.length > 1 ? text.indexOf(members[1]) : text.length - 1,
  ];
  return fc
    .tuple(fc.constantFrom(...BAD_UTF8), fc.constantFrom(...places))
    .map(([sequence, at]) => Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(sequence), Buffer.from(text.slice(at))]));
}

type Frame = (bytes: Buffer) => Omit<Framed, 'content'>;

/** Content-Length mostly, else chunked; no framing only without a body. */
function framing(): fc.Arbitrary<Frame> {
  const pieces = fc.integer({ min: 1, max: 4 });
  const chunkedOptions = fc.record({ pieces, upper: fc.boolean(), extension: fc.boolean(), trailer: fc.boolean() });
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(byLength) },
    { weight: 2, arbitrary: chunkedOptions.map(chunked) },
    { weight: 1, arbitrary: fc.constant((bytes: Buffer) => (bytes.length > 0 ? byLength(bytes) : unframed(bytes))) },
  );
}

/** A body without framing, a Content-Length short, long, repeated or invalid, both framings, or bad chunks. */
function misframing(): fc.Arbitrary<Frame> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(unframed) }, { weight: 4, arbitrary: fc.constantFrom(...MISFRAMINGS) });
}

const contentLength = (bytes: Buffer, delta = 0): Header => ['Content-Length', String(Math.max(0, bytes.length + delta))];
const CHUNKED: Header = ['Transfer-Encoding', 'chunked'];

const byLength: Frame = (bytes) => ({ headers: [contentLength(bytes)], bytes });

const unframed: Frame = (bytes) => ({ headers: [], bytes, mismatch: bytes.length > 0 ? 'a body without framing' : undefined });

function chunked(options: { pieces: number; upper: boolean; extension: boolean; trailer: boolean }): Frame {
  return (bytes) => {
    const size = Math.ceil(bytes.length / options.pieces) || 1;
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += size) {
      const data = bytes.subarray(start, start + size);
      chunks.push(chunk(`${options.upper ? hex(data.length).toUpperCase() : hex(data.length)}${options.extension ? ';ext=1' : ''}`, data));
    }
    chunks.push(Buffer.from(`0\r\n${options.trailer ? 'X-Trailer: 1\r\n' : ''}\r\n`));
    return { headers: [CHUNKED], bytes: Buffer.concat(chunks) };
  };
}

const hex = (size: number) => size.toString(16);
const chunk = (size: string, data: Buffer) => Buffer.concat([Buffer.from(`${size}\r\n`), data, Buffer.from('\r\n')]);
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
/** A well-formed chunked body: the bytes in one chunk, then the last chunk. */
const oneChunk = (bytes: Buffer) => Buffer.concat([chunk(hex(bytes.length), bytes), LAST_CHUNK]);
const INVALID_LENGTHS = ['abc', '-1', '+5', '0x10', '', '1 2', '1.0', '\xd9\xa1'];
const ODD_CODINGS = ['gzip', 'chunked, gzip', 'identity', 'Chunked', 'chunked, chunked', 'chunked\x0b', 'xchunked'];
const BAD_CHUNK_SIZES = ['zz', '-1', 'fffffffffffffffff'];

const MISFRAMINGS: readonly Frame[] = [
  // Content-Length wrong, repeated or invalid.
  (bytes) => ({ headers: [contentLength(bytes, -3)], bytes, mismatch: bytes.length > 0 ? 'bytes after the body' : undefined }),
  (bytes) => ({ headers: [contentLength(bytes, 10)], bytes, mismatch: 'a body shorter than its Content-Length', truncated: true }),
  (bytes) => ({ headers: [contentLength(bytes), contentLength(bytes)], bytes }),
  (bytes) => ({ headers: [contentLength(bytes), contentLength(bytes, 1)], bytes }),
  (bytes) => ({ headers: [['Content-Length', `${bytes.length}, ${bytes.length}`]], bytes }),
  ...INVALID_LENGTHS.map((length): Frame => (bytes) => ({ headers: [['Content-Length', length]], bytes })),
  (bytes) => ({
    headers: [['Content-Length', '99999999999999999999']],
    bytes,
    mismatch: 'a body shorter than its Content-Length',
    truncated: true,
  }),
  // Both framings (the request smuggling vector), and codings other than chunked last.
  (bytes) => ({ headers: [contentLength(bytes), CHUNKED], bytes: oneChunk(bytes) }),
  (bytes) => ({ headers: [CHUNKED, ['Content-Length', '0']], bytes: oneChunk(bytes) }),
  (bytes) => ({ headers: [CHUNKED, CHUNKED], bytes: oneChunk(bytes) }),
  ...ODD_CODINGS.map((coding): Frame => (bytes) => ({ headers: [['Transfer-Encoding', coding]], bytes: oneChunk(bytes) })),
  // Chunks that do not add up.
  (bytes) => ({ headers: [CHUNKED], bytes: chunk(hex(bytes.length), bytes), mismatch: 'no last chunk', truncated: true }),
  ...BAD_CHUNK_SIZES.map((size): Frame => (bytes) => ({
    headers: [CHUNKED],
    bytes: Buffer.concat([chunk(size, bytes), LAST_CHUNK]),
    mismatch: 'a bad chunk size',
  })),
  (bytes) => ({
    headers: [CHUNKED],
    bytes: Buffer.concat([chunk(hex(bytes.length + 5), bytes), LAST_CHUNK]),
    mismatch: 'a chunk shorter than its size',
    truncated: true,
  }),
  (bytes) => ({
    headers: [CHUNKED],
    bytes: Buffer.concat([Buffer.from(`${hex(bytes.length)}\r\n`), bytes, LAST_CHUNK]),
    mismatch: 'chunk data without CRLF',
  }),
];

// ---------------------------------------------------------------------------------------------
// Bytes.

/** Text as the byte string of its UTF-8 encoding. */
function utf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Percent-encodes every byte outside RFC 3986's unreserved characters. */
function percentEncoded(bytes: string): string {
  return bytes.replace(/[^A-Za-z0-9\-._~]/g, (byte) => `%${byte.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Any bytes at all (CR, LF, NUL, high bytes included). */
function byteString(maxLength: number): fc.Arbitrary<string> {
  return fc.uint8Array({ maxLength }).map((bytes) => Buffer.from(bytes).toString('latin1'));
}
