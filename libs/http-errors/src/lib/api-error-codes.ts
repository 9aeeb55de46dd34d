import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODE_SCHEMA } from './error-body.dto';
import { HttpErrorCode } from './error-code';

const API_ERROR_CODES = 'http-errors:api-error-codes';

/** Declares a controller's Error codes beyond HttpErrorCode, so each is defined once, by the feature that raises it. */
export function ApiErrorCodes(codes: readonly string[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(API_ERROR_CODES, codes, target);
}

/** Every code an Error body of the application can carry, once each: the protocol's, then each controller's (ApiErrorCodes). */
export function errorCodesOf(app: INestApplication): string[] {
  const codes = new Set<string>(Object.values(HttpErrorCode));
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const declared = (typeof metatype === 'function' ? Reflect.getMetadata(API_ERROR_CODES, metatype) : undefined) as
        string[] | undefined;
      for (const code of declared ?? []) codes.add(code);
    }
  }
  return [...codes];
}

/** Makes the document's ErrorCode schema list every code the application's Error bodies can carry (errorCodesOf). */
export function documentErrorCodes(app: INestApplication, document: OpenAPIObject): void {
  const schema = document.components?.schemas?.[ERROR_CODE_SCHEMA];
  if (!schema || '$ref' in schema) throw new Error(`The document has no ${ERROR_CODE_SCHEMA} schema to list the error codes in`);
  schema.enum = errorCodesOf(app);
}
