import { Controller, Get, Module, Query, type Type } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiProperty, DocumentBuilder, PartialType, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { IsEmail, IsOptional, IsString, MaxLength, ValidateIf, validate } from 'class-validator';
import { ApiModel, IsInt64 } from './input-rules';

// How class-validator's rules become the document's: what the DTO of a route says, its derived
// DTOs included, and the start's refusal of a rule the service would otherwise ignore. On the real
// application, with ajv enforcing them: apps/api (own-app/query-and-path.spec.ts).

@ApiModel()
class Search {
  @IsString()
  @MaxLength(8)
  @ApiProperty({ description: 'Words to look for' })
  words!: string;

  @IsOptional()
  @IsInt64({ minimum: 0 })
  @ApiProperty({ type: 'integer', format: 'int64' })
  after?: bigint;
}

@ApiModel()
class LooseSearch extends PartialType(Search) {}

async function documentOf(query: Type) {
  @Controller('search')
  class SearchController {
    @Get()
    search(@Query() _query: object) {
      return [];
    }
  }
  // What TypeScript emits for `@Query() query: Search`, with the DTO of each case.
  Reflect.defineMetadata('design:paramtypes', [query], SearchController.prototype, 'search');
  @Module({ controllers: [SearchController] })
  class SearchModule {}
  const moduleRef = await Test.createTestingModule({ imports: [SearchModule] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  try {
    return SwaggerModule.createDocument(app, new DocumentBuilder().build());
  } finally {
    await app.close();
  }
}

describe('ApiModel', () => {
  it("documents a query DTO's class-validator rules, its description kept", async () => {
    expect((await documentOf(Search)).paths['/search'].get?.parameters).toEqual([
      { name: 'words', in: 'query', required: true, description: 'Words to look for', schema: { type: 'string', maxLength: 8 } },
      { name: 'after', in: 'query', required: false, schema: { type: 'integer', format: 'int64', minimum: 0 } },
    ]);
  });

  it('documents the rules a derived DTO inherits, optional as PartialType makes them', async () => {
    const parameters = (await documentOf(LooseSearch)).paths['/search'].get?.parameters ?? [];
    expect(parameters.map((parameter) => 'required' in parameter && [parameter.name, parameter.required])).toEqual([
      ['words', false],
      ['after', false],
    ]);
  });

  it.each([
    [
      '@IsEmail',
      () => {
        @ApiModel()
        class ByMail {
          @IsEmail()
          @ApiProperty()
          mail!: string;
        }
        return ByMail;
      },
      "ByMail.mail: class-validator's isEmail is no rule the service documents and checks yet; " +
        'teach input-rules.ts its JSON Schema and route-schemas.ts its message',
    ],
    [
      '@ValidateIf',
      () => {
        @ApiModel()
        class Conditional {
          @ValidateIf((thing: Conditional) => thing.label !== 'x')
          @IsString()
          @ApiProperty()
          label!: string;
        }
        return Conditional;
      },
      "Conditional.label: class-validator's conditionalValidation is no rule the service documents and checks yet",
    ],
  ])('stops the start on a rule the service cannot document and check (%s), naming the fix', (_rule, declare, message) => {
    expect(declare).toThrow(message);
  });

  it('is a class-validator rule: IsInt64 takes a bigint within its bounds', async () => {
    const search = (after: unknown) => Object.assign(new Search(), { words: 'cat', after });
    expect(await validate(search(0n))).toEqual([]);
    expect((await validate(search(-1n)))[0]?.constraints).toEqual({ isInt64: 'after must be an integer from 0 to 9223372036854775807' });
    expect((await validate(search(1)))[0]?.property).toBe('after');
  });
});
