import { hash } from 'node:crypto';

// Framework-free, as the bench's parity baseline uses them too (RFC 9110 §8.8.3, §13.1.2).

/** A conditional GET's Cache-Control: private (the answer needed a key), revalidated before each use (RFC 9111 §5.2.2). */
export const REVALIDATE_EACH_USE = 'private, no-cache';

/** The strong entity-tag of an answer's bytes: the same on any instance, another on any change. */
export function entityTagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url')}"`;
}

/** Whether If-None-Match names `etag` (weak comparison) or is `*`. Split at commas, which our tags never hold. */
export function ifNoneMatchNames(field: string | readonly string[] | undefined, etag: string): boolean {
  if (field === undefined) return false;
  const value = typeof field === 'string' ? field : field.join(',');
  if (value.trim() === '*') return true;
  const opaque = withoutWeakPrefix(etag);
  return value.split(',').some((member) => withoutWeakPrefix(member.trim()) === opaque);
}

const withoutWeakPrefix = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
