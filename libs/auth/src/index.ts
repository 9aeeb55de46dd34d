export * from './lib/api-key.store';
export * from './lib/auth.module';
export * from './lib/bearer-auth.hook';
export * from './lib/bearer.strategy';
export * from './lib/dev-api-key';
export * from './lib/principal';
