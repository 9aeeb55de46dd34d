/** What the repositories need of the application's pool (createPool): node-postgres's Pool, or PGlitePool. */
export interface QueryablePool {
  query(config: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
