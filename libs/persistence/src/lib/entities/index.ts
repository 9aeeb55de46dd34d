import { ApiKeyEntity } from './api-key.entity';
import { IdempotencyRecordEntity } from './idempotency-record.entity';
import { PetEntity } from './pet.entity';

export { ApiKeyEntity, IdempotencyRecordEntity, PetEntity };

/** Every entity: the tables the service's DataSource knows (a test fails when a *.entity.ts file is missing here). */
export const ENTITIES = [PetEntity, ApiKeyEntity, IdempotencyRecordEntity];
