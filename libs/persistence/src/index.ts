export * from './lib/connection-failure';
export * from './lib/data-dir-lock';
export * from './lib/data-source';
export * from './lib/database';
export * from './lib/pet.mapper';
export * from './lib/persistence.module';
export * from './lib/sql-api-key.repository';
export * from './lib/sql-pet.repository';
