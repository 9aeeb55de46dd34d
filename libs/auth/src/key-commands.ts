// For the key CLI (tools/keys/main.ts): talks to a running service without loading Nest, rate limits or the database.
export * from './lib/keys/key-commands';
export { parseApiKey } from './lib/keys/api-key-secret';
