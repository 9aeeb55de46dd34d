import type { Plugin } from 'ajv';
import ajvErrors from 'ajv-errors';

/**
 * Fastify's ajv, as every route schema expects it: all errors reported, and ajv-errors, which
 * lets a schema say per field what a client got wrong (`errorMessage`). The app and the
 * in-process tests build Fastify with these, so a schema behaves the same in both.
 */
export const AJV_OPTIONS = { customOptions: { allErrors: true }, plugins: [ajvErrors as Plugin<unknown>] };
