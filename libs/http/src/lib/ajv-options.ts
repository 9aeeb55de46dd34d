import type Ajv from 'ajv';
import type { Plugin } from 'ajv';
import ajvErrors from 'ajv-errors';
import { integerTextKeyword } from './integer-text.keyword';

/** Adds the keywords that route schemas derived from the OpenAPI document use (route-schemas.ts). */
function routeSchemaKeywords(ajv: Ajv): Ajv {
  return ajv.addKeyword(integerTextKeyword);
}

/**
 * Fastify's ajv, as every route schema expects it: all errors reported, nothing removed, ajv-errors, which lets a
 * schema say per field what a client got wrong (`errorMessage`), and the keywords of the derived
 * route schemas. The app and the in-process tests build Fastify with these, so a schema behaves
 * the same in both.
 */
export const AJV_OPTIONS = {
  // Fastify's default, removeAdditional, would drop an unknown query parameter instead of refusing it.
  customOptions: { allErrors: true, removeAdditional: false },
  plugins: [routeSchemaKeywords as Plugin<unknown>, ajvErrors as Plugin<unknown>],
};
