import { type DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { IdempotencyRecordRepository, PetRepository } from '@petstore/domain';
import { IdempotencyRecordSweeper } from './idempotency-record.sweeper';
import { IDEMPOTENCY_OPTIONS, type IdempotencyOptions } from './idempotency.options';
import { PetsController } from './pets.controller';
import { PetsService } from './pets.service';

export interface PetsModuleOptions {
  /** Modules that provide the repository. */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  /** The adapter to store pets with, and the records of their idempotent creates. */
  readonly repository: Type<PetRepository & IdempotencyRecordRepository>;
  /** How creates with an Idempotency-Key are kept. */
  readonly idempotency: IdempotencyOptions;
}

/** The pets HTTP API and its use cases, on whichever PetRepository the app binds. */
@Module({})
export class PetsModule {
  static register(options: PetsModuleOptions): DynamicModule {
    return {
      module: PetsModule,
      imports: options.imports,
      controllers: [PetsController],
      providers: [
        PetsService,
        IdempotencyRecordSweeper,
        { provide: PetRepository, useExisting: options.repository },
        { provide: IdempotencyRecordRepository, useExisting: options.repository },
        { provide: IDEMPOTENCY_OPTIONS, useValue: options.idempotency },
      ],
    };
  }
}
