/** The name of every statement of a test or a tool (Statement.adHoc). */
const AD_HOC = 'ad hoc';

/**
 * A SQL statement, made only by `Statement.named` (or `adHoc`): whether it may write is read from its text, so a write taken
 * for a read cannot be written. Its repository declares it to the application's Database, which refuses a name given twice.
 * Prepared, PostgreSQL parses it once per connection.
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

  /** The statement under `name`, which its repository declares to the Database (Database.declare). */
  static named(name: string, text: string, { prepare = true }: { readonly prepare?: boolean } = {}): Statement {
    return new Statement(name, text, prepare);
  }

  /** A statement of a test or a tool: never prepared, declared nowhere, in no metric series. */
  static adHoc(text: string): Statement {
    return new Statement(AD_HOC, text, false);
  }

  /** Whether it is a test's or a tool's (Statement.adHoc). */
  get adHoc(): boolean {
    return this.name === AD_HOC;
  }
}

/** Whether SQL may write, erring towards yes (why, and what it cannot see: docs/decisions/0006-database-access-public-api.md). */
export function mayWrite(text: string): boolean {
  const code = text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  const first = /^[\s(]*([a-z]+)/i.exec(code)?.[1]?.toUpperCase();
  if (first !== 'SELECT' && first !== 'WITH') return true;
  return /\b(insert|update|delete|merge|truncate|into|nextval|setval)\b/i.test(code);
}
