import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';

// Checks every answer of a documented operation against the committed OpenAPI document:
// an undocumented status, a missing documented header or a body of the wrong shape fails.

interface Operation {
  readonly responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, { schema: { type: string } }> }>;
}
interface Document {
  readonly servers: ReadonlyArray<{ url: string }>;
  readonly paths: Record<string, Record<string, Operation>>;
}

const DOCUMENT_FILE = resolve(__dirname, '../../../../openapi/petstore.openapi.json');
const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document;
const basePath = new URL(document.servers[0].url).pathname;
// OpenAPI 3.0 schemas carry `example` and formats such as int64 that JSON Schema validators do not know.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ ...document, $id: 'openapi' });

const templates = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${basePath}${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const validators = new Map<string, ValidateFunction>();

/** Documented headers that only some answers carry: `Link` only on full pages, `Idempotent-Replayed` only on replays. */
const OCCASIONAL_HEADERS: ReadonlyArray<{ readonly header: string; readonly status: number; readonly template: string }> = [
  { header: 'Link', status: 200, template: '/pets' },
  { header: 'Idempotent-Replayed', status: 201, template: '/pets' },
];
const isOccasional = (header: string, status: number, template: string) =>
  OCCASIONAL_HEADERS.some((occasional) => occasional.header === header && occasional.status === status && occasional.template === template);
let validated = 0;

function validatorFor(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** Validates one answer; answers to requests outside the documented operations are not checked. */
export function expectDocumentedResponse(method: string, path: string, status: number, headers: Headers, body: unknown): void {
  const pathname = new URL(path, 'http://x').pathname;
  const template = templates.find(({ pattern }) => pattern.test(pathname))?.template;
  const operation = template ? document.paths[template][method.toLowerCase()] : undefined;
  if (!template || !operation) return;
  const where = `${method} ${template} → ${status}`;
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${where} is not documented`);
  const pointer = `/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}`;
  for (const [header, { schema }] of Object.entries(response.headers ?? {})) {
    const value = headers.get(header);
    if (value === null) {
      if (isOccasional(header, status, template)) continue;
      throw new Error(`${where}: documented header ${header} is missing`);
    }
    const validate = validatorFor(`${pointer}/headers/${escape(header)}/schema`);
    if (!validate(schema.type === 'integer' ? Number(value) : value)) {
      throw new Error(`${where}: header ${header}: ${value} does not match the document: ${ajv.errorsText(validate.errors)}`);
    }
  }
  if (response.content) {
    const validate = validatorFor(`${pointer}/content/application~1json/schema`);
    if (!validate(body)) throw new Error(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}`);
  } else if (body !== undefined) {
    throw new Error(`${where}: a body was sent where the document has none`);
  }
  validated++;
}

/** Records how many answers this test file had validated, for the summary printed at the end. */
export function recordValidatedCount(file: string): void {
  appendFileSync(file, `${validated}\n`);
}
