import { appendFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import { basePath, document as committed } from './document';

// Checks every answer of a documented operation against the committed OpenAPI document:
// an undocumented status, a missing documented header or a body of the wrong shape fails.

interface DocumentedHeader {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: { type: string };
}
interface Operation {
  readonly responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, DocumentedHeader> }>;
}

const document = committed as unknown as { paths: Record<string, Record<string, Operation>> };
// OpenAPI 3.0 schemas carry `example` and formats such as int64 that JSON Schema validators do not know.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ ...committed, $id: 'openapi' });

const templates = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${basePath}${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const validators = new Map<string, ValidateFunction>();

/**
 * A documented header an answer may lack: one the document marks not required and whose
 * description says when it is present (`Link` "present when this page is full",
 * `Idempotent-Replayed` "Present, `true`, when…"). Every other documented header must be there.
 */
const isOccasional = (header: DocumentedHeader) => header.required !== true && /\bpresent\b[^.]*\bwhen\b/i.test(header.description ?? '');
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
  for (const [header, documented] of Object.entries(response.headers ?? {})) {
    const { schema } = documented;
    const value = headers.get(header);
    if (value === null) {
      if (isOccasional(documented)) continue;
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
