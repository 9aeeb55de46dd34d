import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { type ValidateFunction } from 'ajv';
import { basePathOf, committedDocument, operationsOf } from './document';

// Checks an answer of a documented operation against the committed OpenAPI document: an
// undocumented status, a missing documented header or a body of the wrong shape fails. Which
// operation a request is, and which of its answers' headers are occasional, come from the document.

interface DocumentedHeader {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: { readonly type?: string };
}
interface DocumentedAnswer {
  readonly content?: Record<string, unknown>;
  readonly headers?: Record<string, DocumentedHeader>;
}

/**
 * A documented header an answer may lack: one the document marks not required and whose
 * description says when it is present ("present when this page is full", "Present, `true`, when
 * this answer is the stored answer…"). Every other documented header must be on every such answer.
 */
export function isOccasional(header: DocumentedHeader): boolean {
  return header.required !== true && /\bpresent\b[^.]*\bwhen\b/i.test(header.description ?? '');
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export class ContractChecker {
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: ReadonlyArray<{ template: string; pattern: RegExp }>;
  constructor(private readonly document: OpenAPIObject = committedDocument()) {
    // OpenAPI 3.0 schemas carry `example` and formats such as int64 that JSON Schema validators do not know.
    this.ajv.addSchema({ ...document, $id: 'openapi' });
    const basePath = basePathOf(document);
    this.templates = [...new Set(operationsOf(document).map(({ path }) => path))].map((template) => ({
      template,
      pattern: new RegExp(`^${basePath}${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  /**
   * Why an answer breaks the document, or undefined when it keeps it (or belongs to no documented
   * operation: a route outside the API, or a method the path does not have). `headers` by lower-case name.
   */
  problem(method: string, url: string, status: number, headers: Headers, body: unknown): string | undefined {
    const pathname = new URL(url, 'http://x').pathname;
    const template = this.templates.find(({ pattern }) => pattern.test(pathname))?.template;
    const operation = template
      ? operationsOf(this.document).find((entry) => entry.path === template && entry.method === method.toUpperCase())
      : undefined;
    if (!template || !operation) return undefined;
    const where = `${operation.method} ${template} → ${status}`;
    const answer = operation.operation.responses[String(status)] as DocumentedAnswer | undefined;
    if (!answer) return `${where} is not documented`;
    const pointer = `/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}`;
    for (const [header, documented] of Object.entries(answer.headers ?? {})) {
      const value = headers.get(header);
      if (value === null) {
        if (isOccasional(documented)) continue;
        return `${where}: documented header ${header} is missing`;
      }
      const validate = this.validatorFor(`${pointer}/headers/${escape(header)}/schema`);
      if (!validate(documented.schema.type === 'integer' ? Number(value) : value)) {
        return `${where}: header ${header}: ${value} does not match the document: ${this.ajv.errorsText(validate.errors)}`;
      }
    }
    if (answer.content) {
      const validate = this.validatorFor(`${pointer}/content/application~1json/schema`);
      if (!validate(body)) return `${where}: body does not match the document: ${this.ajv.errorsText(validate.errors)}`;
    } else if (body !== undefined) {
      return `${where}: a body was sent where the document has none`;
    }
    return undefined;
  }

  /** Throws when the answer breaks the document. */
  expectDocumented(method: string, url: string, status: number, headers: Headers, body: unknown): void {
    const problem = this.problem(method, url, status, headers, body);
    if (problem) throw new Error(problem);
  }

  private validatorFor(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}
