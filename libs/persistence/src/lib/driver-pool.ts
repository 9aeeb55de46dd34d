/** What the repositories need of the application's pool (createPool): node-postgres's Pool, or PGlitePool. */
export interface QueryablePool {
  /** A statement prepared under its name (a Statement, say), or unnamed text; its values beside it. */
  readonly query: (config: NamedQuery | string, values: unknown[]) => Promise<{ rows: unknown[] }>;
}

/** A statement as node-postgres prepares it under its name. */
export interface NamedQuery {
  readonly name: string;
  readonly text: string;
}
