import { type ArgumentMetadata, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import { validationFailed } from '../errors/api.exception';

/**
 * Keys that class-transformer drops or class-validator's whitelist mistakes for known ones,
 * because plain objects inherit them: every name on Object.prototype, and "prototype".
 */
const INHERITED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * Validates every JSON body against the DTO class its handler declares (`@Body() body: SomeDto`),
 * as the app's one global pipe: unknown properties are refused by name (no mass assignment) and
 * every problem is listed in the message. A route cannot forget it. Query and path parameters are
 * not its business: ajv checks them against the OpenAPI document (route-schemas.ts).
 */
@Injectable()
export class JsonBodyValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => validationFailed(messagesOf(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw validationFailed('Request body must be a JSON object');
    }
    const unsafe = Object.keys(value).find((key) => INHERITED_KEYS.has(key));
    if (unsafe) throw validationFailed(`property ${unsafe} should not exist`);
    return super.transform(value, metadata);
  }
}

function messagesOf(errors: readonly ValidationError[]): string[] {
  return errors.flatMap((error) => Object.values(error.constraints ?? {}));
}
