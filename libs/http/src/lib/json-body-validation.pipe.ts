import { type ArgumentMetadata, type INestApplication, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import { validationFailed } from '@petstore/http-errors';
import { routeHandlers } from './route-handlers';

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

// Nest's route-argument metadata: `${RouteParamtypes}:${index}` keys; BODY is 3.
const BODY_ARGUMENT = `${RouteParamtypes.BODY}:`;
/** What ValidationPipe lets through unchecked (its toValidate): an interface or a type alias arrives as Object. */
const UNVALIDATED_TYPES = new Set<unknown>([undefined, Object, String, Boolean, Number, Array, Buffer, Date]);

/**
 * Stops the start if a route's `@Body()` is not a class with class-validator rules: an interface
 * or a type is erased at run time, and the pipe would pass any body to the handler unchecked.
 * Call it before `app.init()`.
 */
export function assertEveryBodyValidated(app: INestApplication): void {
  for (const { controller, prototype, method } of routeHandlers(app)) {
    const argumentsMetadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number }>;
    const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as unknown[];
    for (const [key, { index }] of Object.entries(argumentsMetadata)) {
      if (!key.startsWith(BODY_ARGUMENT)) continue;
      const type = types[index];
      if (UNVALIDATED_TYPES.has(type) || !hasValidationRules(type)) {
        const name = typeof type === 'function' ? type.name : String(type);
        throw new Error(
          `${controller.name}.${method}: its @Body() is typed ${name}, which the validation pipe cannot check; ` +
            'type it with a DTO class whose properties carry class-validator decorators',
        );
      }
    }
  }
}

function hasValidationRules(type: unknown): boolean {
  return typeof type === 'function' && getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length > 0;
}
