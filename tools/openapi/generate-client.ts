// Generates the typed client (libs/client) from the committed OpenAPI document, as the last step
// of `npm run openapi`; with --check, fails when the committed client is stale (a spec beside it). Two files, from the one document:
// generated/petstore.ts, the types (openapi-typescript), where every int64 is a bigint, and
// generated/int64-locations.ts, where response bodies hold those int64 values, for the client to
// parse exactly them as bigint.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type SchemaObject } from 'openapi-typescript';
import ts from 'typescript';
import { type Document, int64Locations, isInt64, type Schema } from './int64-locations';

// Run from dist/tools/openapi.
const ROOT = resolve(__dirname, '../../..');
const DOCUMENT_FILE = resolve(ROOT, 'openapi/petstore.openapi.json');
const TYPES_FILE = resolve(ROOT, 'libs/client/src/generated/petstore.ts');
const LOCATIONS_FILE = resolve(ROOT, 'libs/client/src/generated/int64-locations.ts');

const BIGINT = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);

/** An int64 schema's type: bigint. openapi-typescript hands type lists (`["integer", "null"]`) over one type at a time. */
function int64AsBigint(schema: SchemaObject): ts.TypeNode | undefined {
  return schema.type === 'integer' && isInt64(schema as Schema) ? BIGINT : undefined;
}

async function generateTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(DOCUMENT_FILE), { defaultNonNullable: false, transform: int64AsBigint });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

function generateLocations(): string {
  const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document;
  return `/**
 * This file was generated from openapi/petstore.openapi.json by tools/openapi (npm run openapi).
 * Do not make direct changes to the file.
 */

import type { Int64Locations } from '../lib/exact-json';

/** Where response bodies hold int64 values, which the client reads as bigint. */
export const int64Locations: Int64Locations = ${JSON.stringify(int64Locations(document), null, 2)};
`;
}

async function generateClient(): Promise<void> {
  writeFileSync(TYPES_FILE, await generateTypes());
  writeFileSync(LOCATIONS_FILE, generateLocations());
  console.log(`Client generated in ${resolve(TYPES_FILE, '..')}`);
}

/** With --check, writes nothing and fails when a committed file is not what the document generates (npm test). */
async function checkClient(): Promise<void> {
  const generated = { [TYPES_FILE]: await generateTypes(), [LOCATIONS_FILE]: generateLocations() };
  const stale = Object.entries(generated).filter(([file, text]) => readFileSync(file, 'utf8') !== text);
  for (const [file] of stale) console.error(`${file} is not what openapi/petstore.openapi.json generates: run npm run openapi`);
  process.exitCode = stale.length > 0 ? 1 : 0;
}

void (process.argv.includes('--check') ? checkClient() : generateClient());
