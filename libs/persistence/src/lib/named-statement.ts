import type { Statement } from './database';

/** Each name given so far, with its statement: a name is one statement per connection in PostgreSQL. */
const statementByName = new Map<string, Statement>();

/**
 * A statement under `name`: its series in the query-duration metric (DatabaseMetrics) and, unless
 * `prepare` is false, the name PostgreSQL prepares it under once per connection. Two statements
 * under one name would fail on PostgreSQL only (PGlite prepares nothing), at their first use: this
 * refuses the second as its module loads, on every database and in every test. Whether it writes
 * is read from its text (mayWrite), never declared.
 */
export function namedStatement(name: string, text: string, options: Pick<Statement, 'prepare'> = {}): Statement {
  const known = statementByName.get(name);
  if (known !== undefined && known.text !== text) {
    throw new Error(`The statement name "${name}" is given to two different statements: give each a name of its own`);
  }
  const statement = { name, text, mayWrite: mayWrite(text), ...options };
  statementByName.set(name, statement);
  return statement;
}

/**
 * Whether a statement may write, from its SQL, erring towards yes: a lost answer to a write is a
 * 500 WRITE_OUTCOME_UNKNOWN, to a read a 503 telling the client nothing was done. A read is a
 * SELECT (or a WITH ... SELECT) naming no data-modifying command (a CTE's INSERT, UPDATE, DELETE
 * or MERGE), no SELECT ... INTO and no sequence change; a row lock (FOR UPDATE) counts as a write.
 * Not seen: a function of the database's that writes, called from a SELECT (the schema has none).
 */
export function mayWrite(text: string): boolean {
  const code = text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  const first = /^[\s(]*([a-z]+)/i.exec(code)?.[1]?.toUpperCase();
  if (first !== 'SELECT' && first !== 'WITH') return true;
  return /\b(insert|update|delete|merge|truncate|into|nextval|setval)\b/i.test(code);
}

/** The statements namedStatement has made so far: the code's, as their modules loaded. */
export function namedStatements(): Iterable<Statement> {
  return statementByName.values();
}

/** The names namedStatement has given so far. */
export function statementNames(): Iterable<string> {
  return statementByName.keys();
}

/** Whether namedStatement gave this name. */
export function isNamedStatement(name: string): boolean {
  return statementByName.has(name);
}
