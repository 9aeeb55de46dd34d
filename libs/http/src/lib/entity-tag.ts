import { hash } from 'node:crypto';

// Entity-tags and If-None-Match (RFC 9110, sections 8.8.3 and 13.1.2), with no framework behind
// them: the conditional GET hook uses them, and so does the bench's parity baseline.

/**
 * Cache-Control of a conditional GET's 200 and 304: a client (never a shared cache: the answer
 * needed a key) may keep it, and must revalidate it before each use (RFC 9111, section 5.2.2).
 */
export const REVALIDATE_EACH_USE = 'private, no-cache';

/**
 * The strong entity-tag of an answer's bytes: the same bytes give the same tag on any instance,
 * and any change to them (a pet changed, added to or gone from a page) another one.
 */
export function entityTagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url')}"`;
}

/**
 * Whether an If-None-Match field (Node joins repeated ones; inject may hand them over as an array)
 * names `etag` by the weak comparison, which ignores `W/`, or is `*`: then a GET is answered 304.
 * A member that is not an entity-tag matches nothing. Members are split at commas: our tags hold
 * none, so a tag of ours is never cut in two.
 */
export function ifNoneMatchNames(field: string | readonly string[] | undefined, etag: string): boolean {
  if (field === undefined) return false;
  const value = typeof field === 'string' ? field : field.join(',');
  if (value.trim() === '*') return true;
  const opaque = withoutWeakPrefix(etag);
  return value.split(',').some((member) => withoutWeakPrefix(member.trim()) === opaque);
}

const withoutWeakPrefix = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
