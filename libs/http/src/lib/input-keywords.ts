import { INT64_MAX, INT64_MIN, parseInt64 } from '@petstore/domain';
import type { KeywordDefinition, SchemaValidateFunction } from 'ajv';

/** Where ajv is in the data (the parent object and the property): ajv's public entry point names it only here. */
type DataValidationCxt = Parameters<SchemaValidateFunction>[3];

/** An OpenAPI integer, its bounds if the document gives them, and where it comes from. */
export interface ExactInteger {
  readonly format: 'int32' | 'int64';
  readonly minimum?: number;
  readonly maximum?: number;
  /** Query or path text (a canonical decimal), or a JSON body's integer literal (a bigint, from the body parser). */
  readonly text: boolean;
}

const FORMAT_RANGES = { int32: { min: -(2n ** 31n), max: 2n ** 31n - 1n }, int64: { min: INT64_MIN, max: INT64_MAX } } as const;

/** The least and the greatest integer of a format, or within the bounds given. */
export function integerBounds({ format, minimum, maximum }: Omit<ExactInteger, 'text'>): { readonly min: bigint; readonly max: bigint } {
  const range = FORMAT_RANGES[format];
  return { min: minimum === undefined ? range.min : BigInt(minimum), max: maximum === undefined ? range.max : BigInt(maximum) };
}

/** `exactInteger`: text or the parser's bigint (a JS number has lost digits past 2^53); becomes a number (int32) or a bigint. */
const exactInteger: KeywordDefinition = {
  keyword: 'exactInteger',
  modifying: true,
  errors: false,
  schemaType: 'object',
  compile: (integer: ExactInteger) => {
    const { format, text } = integer;
    const { min, max } = integerBounds(integer);
    return (data: unknown, context?: DataValidationCxt) => {
      const value = integerOf(data, text);
      if (value === undefined || value < min || value > max || !context) return false;
      context.parentData[context.parentDataProperty] = format === 'int64' ? value : Number(value);
      return true;
    };
  },
};

/** Text read as the domain reads an int64 (plain decimal: no "+", leading zero, exponent or space), or the parser's bigint. */
function integerOf(data: unknown, text: boolean): bigint | undefined {
  if (text) return typeof data === 'string' ? parseInt64(data) : undefined;
  return typeof data === 'bigint' ? data : undefined;
}

/** `wellFormed`: text without lone surrogates, which no database stores as sent. */
const wellFormed: KeywordDefinition = {
  keyword: 'wellFormed',
  type: 'string',
  errors: false,
  schemaType: 'boolean',
  validate: (_schema: boolean, data: string) => data.isWellFormed(),
};

/** The two ajv keywords JSON Schema lacks for this API's inputs; route-schemas.ts writes them. */
export const INPUT_KEYWORDS = [exactInteger, wellFormed];
