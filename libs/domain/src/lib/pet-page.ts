import type { PetStatus } from './pet-status';

/** Page size limits of a pet listing. */
export const PET_PAGE_MIN_LIMIT = 1;
export const PET_PAGE_MAX_LIMIT = 100;
export const PET_PAGE_DEFAULT_LIMIT = 20;

/** Which pets to list: the first `limit` pets in ascending id order after `after`, optionally of one status. */
export interface PetQuery {
  readonly limit: number;
  readonly status?: PetStatus;
  /** Keyset cursor: only pets with a greater id. */
  readonly after?: bigint;
}
