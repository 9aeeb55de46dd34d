import type { ArgumentMetadata } from '@nestjs/common';
import { JsonBodyValidationPipe } from '@petstore/http';
import { ApiException } from '@petstore/http-errors';
import { CreatePetDto } from './create-pet.dto';

async function rejection(promise: () => Promise<unknown>): Promise<ApiException> {
  try {
    await promise();
  } catch (error) {
    if (error instanceof ApiException) return error;
    throw error;
  }
  throw new Error('the value was accepted');
}

describe('NewPet (CreatePetDto) through the JSON body pipe', () => {
  const pipe = new JsonBodyValidationPipe();
  const body: ArgumentMetadata = { type: 'body', metatype: CreatePetDto, data: '' };
  const validate = (value: unknown) => pipe.transform(value, body);
  const messageFor = async (value: unknown) => (await rejection(() => validate(value))).message;

  it('returns a valid body', async () => {
    await expect(validate({ name: 'Rex', categoryId: 1n })).resolves.toEqual({ name: 'Rex', categoryId: 1n });
  });

  it('accepts a status', async () => {
    await expect(validate({ name: 'Rex', categoryId: 1n, status: 'sold' })).resolves.toEqual({
      name: 'Rex',
      categoryId: 1n,
      status: 'sold',
    });
  });

  it('accepts the largest int64 category id', async () => {
    await expect(validate({ name: 'Rex', categoryId: 2n ** 63n - 1n })).resolves.toEqual({ name: 'Rex', categoryId: 2n ** 63n - 1n });
  });

  it.each([null, [], 'x', 5, undefined])('refuses the non-object %p with 400 VALIDATION_FAILED', async (value) => {
    const error = await rejection(() => validate(value));
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('Request body must be a JSON object');
  });

  it('requires a name', async () => {
    const error = await rejection(() => validate({ categoryId: 1n }));
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('name is required');
  });

  it('says what is wrong with the name', async () => {
    expect(await messageFor({ name: '', categoryId: 1n })).toContain('name must be 1 to 255 characters long');
    expect(await messageFor({ name: 'Re\u0000x', categoryId: 1n })).toContain('name must not contain control characters');
    expect(await messageFor({ name: 5, categoryId: 1n })).toContain('name must be a string');
  });

  it('requires a category id', async () => {
    expect(await messageFor({ name: 'Rex' })).toContain('categoryId is required');
  });

  it('refuses a category id that did not arrive as a JSON integer literal', async () => {
    expect(await messageFor({ name: 'Rex', categoryId: 1 })).toContain('categoryId must be an integer');
  });

  it.each([2n ** 63n, -(2n ** 63n) - 1n])('refuses the category id %p outside int64', async (categoryId) => {
    expect(await messageFor({ name: 'Rex', categoryId })).toContain(
      'categoryId must be an integer from -9223372036854775808 to 9223372036854775807',
    );
  });

  it('refuses a category id given as a string', async () => {
    expect(await messageFor({ name: 'Rex', categoryId: '1' })).toContain('categoryId must be an integer');
  });

  it.each([null, 'lost', 'SOLD'])('refuses the status %p', async (status) => {
    expect(await messageFor({ name: 'Rex', categoryId: 1n, status })).toContain('status must be one of available, pending, sold');
  });

  it('refuses an unknown property by name', async () => {
    expect(await messageFor({ name: 'Rex', categoryId: 1n, id: 7n })).toContain('property id should not exist');
  });

  it.each(['toString', 'hasOwnProperty', 'valueOf', 'constructor', '__proto__', 'prototype', 'isPrototypeOf'])(
    'refuses the inherited name %s as an unknown property',
    async (key) => {
      const value = JSON.parse(`{"name":"Rex","categoryId":1,${JSON.stringify(key)}:"x"}`) as Record<string, unknown>;
      expect(await messageFor({ ...value, categoryId: 1n })).toBe(`property ${key} should not exist`);
    },
  );

  it('lists every problem, joined with "; "', async () => {
    const message = await messageFor({ categoryId: '1', status: 'lost' });
    expect(message.split('; ').sort()).toEqual([
      'categoryId must be an integer from -9223372036854775808 to 9223372036854775807',
      'name is required',
      'status must be one of available, pending, sold',
    ]);
  });
});
