import type Ajv from 'ajv';
import type { Plugin } from 'ajv';
import ajvErrors from 'ajv-errors';
import { INPUT_KEYWORDS } from './input-keywords';

function inputKeywords(ajv: Ajv): Ajv {
  for (const keyword of INPUT_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/** Fastify's ajv as route-schemas.ts expects it (all errors, ajv-errors' messages, our keywords); app and tests share it. */
export const AJV_OPTIONS = {
  // Fastify's defaults would drop an unknown property instead of refusing it, and take 5 for "5".
  customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false },
  plugins: [inputKeywords as Plugin<unknown>, ajvErrors as Plugin<unknown>],
};
