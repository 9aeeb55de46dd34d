/** Each name given so far, with its statement: a name is one statement per connection in PostgreSQL. */
const statementByName = new Map<string, Statement>();

/**
 * A SQL statement, made only by `Statement.named` (or `adHoc`): its name unique, whether it may write read from its text, so a
 * copied name or a write taken for a read cannot be written. Prepared, PostgreSQL parses it once per connection.
 */
export class Statement {
  /** false for a plain read (from the text): when its connection fails, it is simply not done. */
  readonly mayWrite: boolean;
  // Makes the type nominal: an object literal of the same shape is no Statement.
  declare private readonly made: never;

  private constructor(
    /** Unique: its series in the query-duration metric, and its prepared statement's name. */
    readonly name: string,
    readonly text: string,
    /** false: never prepared, planned for its values every time. */
    readonly prepare: boolean,
  ) {
    this.mayWrite = mayWrite(text);
  }

  /** The statement under `name`; a name already given to another text throws as its module loads, not on PostgreSQL. */
  static named(name: string, text: string, { prepare = true }: { readonly prepare?: boolean } = {}): Statement {
    const known = statementByName.get(name);
    if (known !== undefined && known.text !== text) {
      throw new Error(`The statement name "${name}" is given to two different statements: give each a name of its own`);
    }
    const statement = known ?? new Statement(name, text, prepare);
    statementByName.set(name, statement);
    return statement;
  }

  /** A statement of a test or a tool: never prepared, in no metric series. */
  static adHoc(text: string): Statement {
    return new Statement('ad hoc', text, false);
  }
}

/** Whether SQL may write, erring towards yes (why, and what it cannot see: docs/decisions/0006-database-access-public-api.md). */
export function mayWrite(text: string): boolean {
  const code = text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  const first = /^[\s(]*([a-z]+)/i.exec(code)?.[1]?.toUpperCase();
  if (first !== 'SELECT' && first !== 'WITH') return true;
  return /\b(insert|update|delete|merge|truncate|into|nextval|setval)\b/i.test(code);
}

/** The statements Statement.named has made so far: the code's, as their modules loaded. */
export function namedStatements(): Iterable<Statement> {
  return statementByName.values();
}

/** The names Statement.named has given so far. */
export function statementNames(): Iterable<string> {
  return statementByName.keys();
}

/** Whether Statement.named gave this name. */
export function isNamedStatement(name: string): boolean {
  return statementByName.has(name);
}
