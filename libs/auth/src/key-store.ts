// For the key CLI on the database itself (tools/keys/on-database.ts): the key store without the HTTP side (passport, rate limits, Swagger).
export { IssuedKeys } from './lib/keys/issued-keys';
export { runKeyCommand } from './lib/keys/key-admin';
