import type { Statement } from './database';

/** Each name given so far, with its statement's text: a name is one statement per connection in PostgreSQL. */
const textByName = new Map<string, string>();

/**
 * A statement under `name`: its series in the query-duration metric (DatabaseMetrics) and, unless
 * `prepare` is false, the name PostgreSQL prepares it under once per connection. Two statements
 * under one name would fail on PostgreSQL only (PGlite prepares nothing), at their first use: this
 * refuses the second as its module loads, on every database and in every test.
 */
export function namedStatement(name: string, text: string, options: Pick<Statement, 'readOnly' | 'prepare'> = {}): Statement {
  const known = textByName.get(name);
  if (known !== undefined && known !== text) {
    throw new Error(`The statement name "${name}" is given to two different statements: give each a name of its own`);
  }
  textByName.set(name, text);
  return { name, text, ...options };
}

/** The names namedStatement has given so far: the code's statements, as their modules loaded. */
export function statementNames(): Iterable<string> {
  return textByName.keys();
}

/** Whether namedStatement gave this name. */
export function isNamedStatement(name: string): boolean {
  return textByName.has(name);
}
