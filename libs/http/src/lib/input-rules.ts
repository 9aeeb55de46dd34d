import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema, type ApiSchemaOptions } from '@nestjs/swagger';
import {
  getMetadataStorage,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_LENGTH,
  IS_OPTIONAL,
  IS_STRING,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { integerBounds } from './input-keywords';

const IS_INT64 = 'isInt64';

/** What a 64-bit integer input may be; bounds as JSON numbers, as the document writes them. */
export interface Int64Bounds {
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A 64-bit integer, handed over as a bigint (a JS number loses digits past 2^53): see input-keywords.ts. */
export function IsInt64(bounds: Int64Bounds = {}, options?: ValidationOptions): PropertyDecorator {
  const { min, max } = integerBounds({ format: 'int64', ...bounds });
  return ValidateBy(
    {
      name: IS_INT64,
      constraints: [bounds],
      validator: {
        validate: (value) => typeof value === 'bigint' && value >= min && value <= max,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an integer from ${min} to ${max}`,
      },
    },
    options,
  );
}

type Converters = NonNullable<NonNullable<Parameters<typeof targetConstructorToSchema>[1]>['additionalConverters']>;

// Where this API differs from class-validator-jsonschema: @IsInt() is a JS number (int32); a bound adds no type.
const CONVERTERS: Converters = {
  [IS_INT]: { type: 'integer', format: 'int32' },
  [IS_INT64]: (meta) => ({ type: 'integer', format: 'int64', ...(meta.constraints[0] as Int64Bounds) }),
  [MIN]: (meta) => ({ minimum: meta.constraints[0] as number }),
  [MAX]: (meta) => ({ maximum: meta.constraints[0] as number }),
  [MATCHES]: (meta) => ({
    type: 'string',
    pattern: (meta.constraints[0] as RegExp).source,
    ...(typeof meta.message === 'string' && { [PATTERN_MEANS]: meta.message }),
  }),
};

const PATTERN_MEANS = 'x-pattern-means';
/** The rules route-schemas.ts checks and words; any other stops the start. */
const COMPILED = new Set<string>([...Object.keys(CONVERTERS), IS_LENGTH, MIN_LENGTH, MAX_LENGTH, IS_IN, IS_ENUM, IS_STRING, IS_OPTIONAL]);
const RULE_KEYWORDS = ['type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'enum', PATTERN_MEANS] as const;

const API_MODEL = Symbol('api model');

/**
 * A DTO a handler takes or answers: its class-validator rules documented as its `ApiProperty` options, which the document and
 * its routes' schemas read (route-schemas.ts), as the class is declared; `options` name its schema (`ApiSchema`).
 */
export function ApiModel(options?: ApiSchemaOptions): ClassDecorator {
  return (target) => {
    const dto = target as unknown as Type;
    documentRulesOf(dto);
    if (options) ApiSchema(options)(target);
    Reflect.defineMetadata(API_MODEL, true, dto);
  };
}

/** Whether the class itself, not only a class it extends, is declared `@ApiModel()`: a subclass may add rules of its own. */
export function isApiModel(dto: Type): boolean {
  return Reflect.hasOwnMetadata(API_MODEL, dto);
}

function documentRulesOf(dto: Type): void {
  assertEveryRuleCompiled(dto);
  const schema = targetConstructorToSchema(dto, { additionalConverters: CONVERTERS });
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const rules = Object.fromEntries(
      RULE_KEYWORDS.filter((word) => word in property).map((word) => [word, (property as Record<string, unknown>)[word]]),
    );
    ApiProperty({ ...rules, required: required.has(key) })(dto.prototype as object, key);
  }
}

function rulesOf(dto: Type) {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
}

/** A rule the service cannot document and check would be silently ignored: the start stops, naming it. */
function assertEveryRuleCompiled(dto: Type): void {
  const storage = getMetadataStorage();
  for (const rule of rulesOf(dto)) {
    const name = rule.constraintCls
      ? (storage.getTargetValidatorConstraints(rule.constraintCls)[0]?.name ?? rule.type)
      : (rule.name ?? rule.type);
    if (!COMPILED.has(name) || rule.each) {
      throw new Error(
        `${dto.name}.${rule.propertyName}: class-validator's ${name}${rule.each ? ' (each)' : ''} is no rule the service documents and checks yet; ` +
          'teach input-rules.ts its JSON Schema and route-schemas.ts its message',
      );
    }
  }
}
