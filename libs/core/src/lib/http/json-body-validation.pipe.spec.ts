import type { ArgumentMetadata } from '@nestjs/common';
import { IsString } from 'class-validator';
import { JsonBodyValidationPipe } from './json-body-validation.pipe';

describe('JsonBodyValidationPipe', () => {
  const pipe = new JsonBodyValidationPipe();
  class Empty {}

  it.each<ArgumentMetadata['type']>(['query', 'param', 'custom'])('leaves %s arguments alone (ajv checks them)', async (type) => {
    const value = { anything: 'goes' };
    await expect(pipe.transform(value, { type, metatype: Empty })).resolves.toBe(value);
  });

  it.each([null, 'text', 1, [1]])('refuses a body that is not a JSON object (%p)', async (value) => {
    await expect(pipe.transform(value, { type: 'body', metatype: Empty })).rejects.toThrow('Request body must be a JSON object');
  });

  it('refuses a property the class does not declare, and one every object inherits', async () => {
    class Named {
      @IsString()
      name!: string;
    }
    const body = (value: object) => pipe.transform(value, { type: 'body', metatype: Named });
    await expect(body({ name: 'Rex' })).resolves.toEqual({ name: 'Rex' });
    await expect(body({ name: 'Rex', extra: 1 })).rejects.toThrow('property extra should not exist');
    await expect(body({ name: 'Rex', toString: 1 })).rejects.toThrow('property toString should not exist');
  });
});
