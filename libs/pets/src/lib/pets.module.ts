import { type DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { PetRepository } from '@petstore/domain';
import { PetsController } from './pets.controller';
import { PetsService } from './pets.service';

export interface PetsModuleOptions {
  /** Modules that provide the repository. */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  /** The PetRepository adapter to store pets with. */
  readonly repository: Type<PetRepository>;
}

/** The pets HTTP API and its use cases, on whichever PetRepository the app binds. */
@Module({})
export class PetsModule {
  static register(options: PetsModuleOptions): DynamicModule {
    return {
      module: PetsModule,
      imports: options.imports,
      controllers: [PetsController],
      providers: [PetsService, { provide: PetRepository, useExisting: options.repository }],
    };
  }
}
