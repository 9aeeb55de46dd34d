import { hash, randomBytes } from 'node:crypto';

/** Every issued key starts with this, so a leaked one is easy to recognise and to scan for. */
const KEY_MARK = 'ps';
const PREFIX_BYTES = 6;
/** 256 bits of randomness: beyond guessing, so a fast hash (SHA-256) is enough to store it. */
const SECRET_BYTES = 32;
const KEY_PATTERN = /^ps_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** A freshly generated key: the token to hand out once, and what the store keeps of it. */
export interface GeneratedApiKey {
  readonly token: string;
  readonly prefix: string;
  readonly secretSha256: Buffer;
}

/** `ps_<12 hex>_<43 base64url>`: a public lookup prefix and a 256-bit secret. */
export function generateApiKey(): GeneratedApiKey {
  const prefix = `${KEY_MARK}_${randomBytes(PREFIX_BYTES).toString('hex')}`;
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { token: `${prefix}_${secret}`, prefix, secretSha256: sha256(secret) };
}

/** The prefix and secret of a token shaped like an issued key, or undefined. */
export function parseApiKey(token: string): { prefix: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(token);
  return match ? { prefix: `${KEY_MARK}_${match[1]}`, secret: match[2] } : undefined;
}

/** SHA-256 of the text's UTF-8, through hex: cheaper than the Buffer Node makes for a digest, and it runs per request (docs/performance.md). */
export function sha256(text: string): Buffer {
  return Buffer.from(hash('sha256', text, 'hex'), 'hex');
}
