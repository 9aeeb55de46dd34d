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

/** Plain decimal: no sign "+", no leading zero, no exponent, no space. */
const CANONICAL_DECIMAL = /^(?:0|-?[1-9][0-9]{0,18})$/;
const FORMAT_BITS = { int32: 32n, int64: 64n } as const;

/** The least and the greatest integer of a format, or within the bounds given. */
export function integerBounds({ format, minimum, maximum }: Omit<ExactInteger, 'text'>): { readonly min: bigint; readonly max: bigint } {
  const half = 2n ** (FORMAT_BITS[format] - 1n);
  return { min: minimum === undefined ? -half : BigInt(minimum), max: maximum === undefined ? half - 1n : BigInt(maximum) };
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
      let value: bigint;
      if (text && typeof data === 'string' && CANONICAL_DECIMAL.test(data)) value = BigInt(data);
      else if (!text && typeof data === 'bigint') value = data;
      else return false;
      if (value < min || value > max || !context) return false;
      context.parentData[context.parentDataProperty] = format === 'int64' ? value : Number(value);
      return true;
    };
  },
};

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
