import type Ajv from 'ajv';
import type { Plugin } from 'ajv';
import ajvErrors from 'ajv-errors';
import { INPUT_KEYWORDS } from './input-keywords';

function inputKeywords(ajv: Ajv): Ajv {
  for (const keyword of INPUT_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/**
 * Fastify's ajv, as the input schemas derived from the document (route-schemas.ts) expect it: all
 * errors reported, nothing removed or coerced, ajv-errors, which lets a schema say per field what a
 * client got wrong (`errorMessage`), and the input keywords. The app and the tests build Fastify
 * with these, so a schema behaves the same in both.
 */
export const AJV_OPTIONS = {
  // Fastify's defaults would drop an unknown property instead of refusing it, and take 5 for "5".
  customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false },
  plugins: [inputKeywords as Plugin<unknown>, ajvErrors as Plugin<unknown>],
};
