import type { Statement } from './database';

/** Each name given so far, with its statement: a name is one statement per connection in PostgreSQL. */
const statementByName = new Map<string, Statement>();

/** A statement under `name` (its metric series and prepared name); a name reused for another text throws at load, not on PostgreSQL. */
export function namedStatement(name: string, text: string, options: Pick<Statement, 'prepare'> = {}): Statement {
  const known = statementByName.get(name);
  if (known !== undefined && known.text !== text) {
    throw new Error(`The statement name "${name}" is given to two different statements: give each a name of its own`);
  }
  const statement = { name, text, mayWrite: mayWrite(text), ...options };
  statementByName.set(name, statement);
  return statement;
}

/** Whether SQL may write, erring towards yes (why, and what it cannot see: docs/decisions/0006-database-access-public-api.md). */
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
