import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { validationFailed } from '@petstore/core';
import { parseInt64 } from '@petstore/domain';

/** A path parameter that must be a positive int64 in plain decimal. */
@Injectable()
export class ParsePositiveInt64Pipe implements PipeTransform<string, bigint> {
  transform(value: string, metadata: ArgumentMetadata): bigint {
    const id = parseInt64(value);
    if (id === undefined || id < 1n) throw validationFailed(`${metadata.data} must be a positive 64-bit integer`);
    return id;
  }
}

const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'];

/**
 * Validates a JSON object body against its DTO: unknown properties are refused by name
 * (no mass assignment) and every problem is listed in the message.
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

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw validationFailed('Request body must be a JSON object');
    }
    // class-transformer silently drops these keys, so the whitelist would never see them.
    const unsafe = metadata.type === 'body' ? UNSAFE_KEYS.find((key) => Object.hasOwn(value as object, key)) : undefined;
    if (unsafe) throw validationFailed(`property ${unsafe} should not exist`);
    return super.transform(value, metadata);
  }
}

function messagesOf(errors: readonly ValidationError[]): string[] {
  return errors.flatMap((error) => Object.values(error.constraints ?? {}));
}
