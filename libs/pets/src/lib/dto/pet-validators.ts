import { INT64_MAX, INT64_MIN, isInt64, isPetStatus, PET_STATUSES, petNameProblem } from '@petstore/domain';
import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

// One constraint per field, each with a message that says exactly what is wrong.

export function IsPetName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPetName',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && petNameProblem(value) === undefined,
        defaultMessage: ({ property, value }: ValidationArguments) =>
          typeof value === 'string' ? `${property} ${petNameProblem(value)}` : requiredOrType(property, value, 'a string'),
      },
    },
    options,
  );
}

/** An int64 that arrived as a JSON integer literal: the body parser hands those over as bigint. */
export function IsInt64(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInt64',
      validator: {
        validate: (value: unknown) => typeof value === 'bigint' && isInt64(value),
        defaultMessage: ({ property, value }: ValidationArguments) =>
          requiredOrType(property, value, `an integer from ${INT64_MIN} to ${INT64_MAX}`),
      },
    },
    options,
  );
}

export function IsPetStatus(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPetStatus',
      validator: {
        validate: (value: unknown) => isPetStatus(value),
        defaultMessage: ({ property }: ValidationArguments) => `${property} must be one of ${PET_STATUSES.join(', ')}`,
      },
    },
    options,
  );
}

function requiredOrType(property: string, value: unknown, expected: string): string {
  return value === undefined ? `${property} is required` : `${property} must be ${expected}`;
}
