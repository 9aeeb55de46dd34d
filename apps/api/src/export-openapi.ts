// `npm run openapi`: writes the served document to openapi/ without listening or a database; CI fails on a diff.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@petstore/config';
import { createApp } from './create-app';

// Run from dist/apps/api/src.
const OPENAPI_FILE = resolve(__dirname, '../../../../openapi/petstore.openapi.json');

async function exportOpenApi(): Promise<void> {
  const { app, document } = await createApp(loadConfig({}), { documentOnly: true, logLevel: 'silent' });
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  console.log(`OpenAPI document written to ${OPENAPI_FILE}`);
}

void exportOpenApi();
