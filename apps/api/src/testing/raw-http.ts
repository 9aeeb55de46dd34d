import { connect } from 'node:net';

/** One HTTP/1.1 answer, parsed from the bytes the server wrote. */
export interface RawResponse {
  readonly status: number;
  readonly statusLine: string;
  /** Field values by lower-case name, in the order received (a repeated field has several). */
  readonly headers: ReadonlyMap<string, readonly string[]>;
  readonly body: Buffer;
}

/** What became of one request sent on its own connection. */
export type RawExchange =
  | { readonly kind: 'answered'; readonly response: RawResponse }
  /** The connection ended (closed or reset) before a single byte of an answer. */
  | { readonly kind: 'closed'; readonly error?: string }
  /** Bytes arrived, but not a complete, well-formed answer. */
  | { readonly kind: 'malformed'; readonly reason: string; readonly bytes: Buffer }
  | { readonly kind: 'timed out'; readonly bytes: Buffer }
  /** Nothing listens: the server is gone. */
  | { readonly kind: 'refused'; readonly error: string };

export interface SendOptions {
  readonly method: string;
  readonly halfClose: boolean;
  readonly timeoutMs: number;
}

class MalformedResponse extends Error {}

/**
 * Writes `bytes` on a new connection and reads the first final answer; `method` says whether that
 * answer has a body (not for HEAD). `halfClose` ends the sending side after the bytes, so that a
 * request whose framing promises more bytes than it carries meets the end of the stream instead of
 * waiting.
 */
export function sendRaw(url: string, bytes: Buffer, options: SendOptions): Promise<RawExchange> {
  const { method, halfClose, timeoutMs } = options;
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = connect(Number(port), hostname, () => (halfClose ? socket.end(bytes) : socket.write(bytes)));
    const settle = (exchange: RawExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(exchange);
    };
    const timer = setTimeout(() => settle({ kind: 'timed out', bytes: received }), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const exchange = exchangeOf(received, method, false);
      if (exchange) settle(exchange);
    });
    // A reset after the answer arrived (the server closing on a body it did not read) loses nothing.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') settle({ kind: 'refused', error: error.message });
      else settle(exchangeOf(received, method, true, error.code) ?? { kind: 'closed' });
    });
    socket.on('close', () => settle(exchangeOf(received, method, true) ?? { kind: 'closed' }));
  });
}

/** The exchange the bytes so far amount to, or undefined while the answer is still incomplete. */
function exchangeOf(bytes: Buffer, method: string, ended: boolean, error?: string): RawExchange | undefined {
  try {
    // Interim answers (100 Continue) and nothing more: no answer.
    if (ended && afterInterimAnswers(bytes) === bytes.length) return { kind: 'closed', error };
    const response = parseResponse(bytes, method, ended);
    if (response) return { kind: 'answered', response };
    return ended ? { kind: 'malformed', reason: `the connection ended mid-answer${error ? ` (${error})` : ''}`, bytes } : undefined;
  } catch (problem) {
    if (!(problem instanceof MalformedResponse)) throw problem;
    return { kind: 'malformed', reason: problem.message, bytes };
  }
}

/**
 * Parses the first final answer in `bytes`; undefined while incomplete. `ended`: no more bytes
 * will come, which completes a body delimited by the end of the connection. Throws
 * MalformedResponse on a syntax error.
 */
export function parseResponse(bytes: Buffer, method: string, ended: boolean): RawResponse | undefined {
  const start = afterInterimAnswers(bytes);
  const headEnd = bytes.indexOf('\r\n\r\n', start);
  if (headEnd < 0) return undefined;
  const head = parseHead(bytes.subarray(start, headEnd).toString('latin1'));
  const body = bodyOf(head, bytes.subarray(headEnd + 4), method, ended);
  return body && { ...head, body };
}

/** Where the bytes go on after the complete interim (1xx but 101) answers they begin with. */
function afterInterimAnswers(bytes: Buffer): number {
  let offset = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    const status = /^HTTP\/1\.[01] (1\d\d) /.exec(bytes.toString('latin1', offset, offset + 13))?.[1];
    if (headEnd < 0 || !status || status === '101') return offset;
    offset = headEnd + 4;
  }
}

function parseHead(text: string): Omit<RawResponse, 'body'> {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine);
  if (!match) throw new MalformedResponse(`bad status line ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MalformedResponse(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { status: Number(match[1]), statusLine, headers };
}

/** The body after the head, framed as RFC 9112 section 6.3 says; undefined while incomplete. */
function bodyOf(head: Omit<RawResponse, 'body'>, rest: Buffer, method: string, ended: boolean): Buffer | undefined {
  if (method === 'HEAD' || head.status === 204 || head.status === 304) return Buffer.alloc(0);
  const encoding = head.headers.get('transfer-encoding');
  if (encoding) {
    if (encoding.join(',').trim().toLowerCase() !== 'chunked') throw new MalformedResponse(`transfer-encoding ${encoding.join(',')}`);
    return dechunk(rest);
  }
  const lengths = head.headers.get('content-length');
  if (lengths) {
    if (lengths.length !== 1 || !/^\d+$/.test(lengths[0])) throw new MalformedResponse(`content-length ${lengths.join(',')}`);
    const length = Number(lengths[0]);
    return rest.length >= length ? rest.subarray(0, length) : undefined;
  }
  return ended ? rest : undefined;
}

/** Decodes a chunked body (extensions and trailers ignored); undefined until its last chunk arrived. */
function dechunk(bytes: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const sizeText = bytes.subarray(offset, lineEnd).toString('latin1').split(';')[0].trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new MalformedResponse(`bad chunk size ${JSON.stringify(sizeText)}`);
    const size = parseInt(sizeText, 16);
    if (size === 0) return bytes.indexOf('\r\n\r\n', lineEnd) >= 0 ? Buffer.concat(chunks) : undefined;
    const dataEnd = lineEnd + 2 + size;
    if (bytes.length < dataEnd + 2) return undefined;
    if (bytes.toString('latin1', dataEnd, dataEnd + 2) !== '\r\n') throw new MalformedResponse('chunk data not followed by CRLF');
    chunks.push(bytes.subarray(lineEnd + 2, dataEnd));
    offset = dataEnd + 2;
  }
}
