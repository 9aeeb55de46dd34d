import { CreatePets1763900000000 } from './1763900000000-create-pets';
import { CreateApiKeys1764000000000 } from './1764000000000-create-api-keys';
import { CreateIdempotencyRecords1764100000000 } from './1764100000000-create-idempotency-records';

/** Every migration, in order; new ones are appended here. */
export const MIGRATIONS = [CreatePets1763900000000, CreateApiKeys1764000000000, CreateIdempotencyRecords1764100000000];
