// The key commands and the admin socket's client alone, for the key CLI: it asks a running service
// without loading Nest, the rate limits or the database (tools/keys/main.ts).
export * from './lib/keys/key-commands';
export { parseApiKey } from './lib/keys/api-key-secret';
