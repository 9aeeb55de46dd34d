import { PET_PAGE_DEFAULT_LIMIT, PET_PAGE_MAX_LIMIT, PET_PAGE_MIN_LIMIT, PET_STATUSES } from '@petstore/domain';

// Fastify route schemas: ajv validates the query string and fast-json-stringify writes the
// responses (bigint ids as exact digits, unknown fields dropped).

const STATUS_MESSAGE = `must be one of ${PET_STATUSES.join(', ')}`;
export const AFTER_MESSAGE = 'after must be a 64-bit integer (the id of the last pet of the previous page)';

export const PET_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'categoryId', 'status'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
} as const;

export const PET_LIST_SCHEMA = { type: 'array', items: PET_SCHEMA } as const;

/** A pattern matching exactly the canonical decimals from `min` to `max` (no sign, no leading zero): a short list, spelt out. */
function canonicalDecimalIn(min: number, max: number): string {
  return `^(?:${Array.from({ length: max - min + 1 }, (_, offset) => min + offset).join('|')})$`;
}

/**
 * `limit` is matched as text, not coerced: ajv would accept "1e2" or "+5" as numbers.
 * A repeated parameter arrives as an array and fails the string type.
 */
export const LIST_PETS_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    limit: {
      type: 'string',
      pattern: canonicalDecimalIn(PET_PAGE_MIN_LIMIT, PET_PAGE_MAX_LIMIT),
      default: String(PET_PAGE_DEFAULT_LIMIT),
      errorMessage: `limit must be an integer from ${PET_PAGE_MIN_LIMIT} to ${PET_PAGE_MAX_LIMIT}`,
    },
    status: { type: 'string', enum: PET_STATUSES, errorMessage: `status ${STATUS_MESSAGE}` },
    after: { type: 'string', pattern: '^(0|-?[1-9][0-9]{0,18})$', errorMessage: AFTER_MESSAGE },
  },
} as const;

export interface ListPetsQuery {
  readonly limit: string;
  readonly status?: (typeof PET_STATUSES)[number];
  readonly after?: string;
}
