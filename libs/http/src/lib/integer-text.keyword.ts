import type { KeywordDefinition } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types';

/** The ajv keyword that checks an integer parameter's text (route-schemas.ts writes it). */
export const INTEGER_TEXT_KEYWORD = 'integerText';

/** An OpenAPI integer parameter: its format and, if the document gives them, its bounds. */
export interface IntegerText {
  readonly format: 'int32' | 'int64';
  readonly minimum?: number;
  readonly maximum?: number;
}

/** Plain decimal: no sign "+", no leading zero, no exponent, no space. */
const CANONICAL_DECIMAL = /^(?:0|-?[1-9][0-9]{0,18})$/;
const FORMAT_BITS = { int32: 32n, int64: 64n } as const;

/**
 * `integerText`: the value is text holding an integer of the format, within the bounds; it is
 * replaced by that integer, a number for int32 and a bigint for int64, so handlers get the value
 * the document promises and never parse it again.
 */
export const integerTextKeyword: KeywordDefinition = {
  keyword: INTEGER_TEXT_KEYWORD,
  type: 'string',
  modifying: true,
  errors: false,
  schemaType: 'object',
  compile: ({ format, minimum, maximum }: IntegerText) => {
    const half = 2n ** (FORMAT_BITS[format] - 1n);
    const min = minimum === undefined ? -half : BigInt(minimum);
    const max = maximum === undefined ? half - 1n : BigInt(maximum);
    return (text: string, context?: DataValidationCxt) => {
      if (!CANONICAL_DECIMAL.test(text)) return false;
      const value = BigInt(text);
      if (value < min || value > max || !context) return false;
      context.parentData[context.parentDataProperty] = format === 'int64' ? value : Number(value);
      return true;
    };
  },
};
