import { Body, HttpCode, Module, Param, Post, Query } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ApiController, ApiModel, IsInt64 } from '@petstore/http';
import { IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { AUTH, type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// Query and path parameters on the real application: ajv checks them against the operation's
// parameters in the document, which its DTOs' class-validator rules make (input-rules.ts,
// route-schemas.ts, docs/decisions/0007), and every refusal names what the value must be. A route
// of this test's own shows that a class-validator rule added to a DTO, of the query, the path or
// the body, is documented and enforced.

@ApiModel()
class ProbeQuery {
  @IsString()
  @Length(2, 4)
  @Matches(/^[a-z]*$/, { message: 'must be lower-case letters' })
  @ApiProperty()
  code!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(9)
  @ApiProperty()
  size?: number;
}

@ApiModel()
class ProbeParams {
  @IsInt64({ minimum: 1 })
  @ApiProperty({ type: 'integer', format: 'int64' })
  probeId!: bigint;
}

@ApiModel()
class ProbeBody {
  @IsString()
  @MaxLength(3)
  @ApiProperty()
  note!: string;
}

@ApiController('probes')
class ProbeController {
  @Post(':probeId')
  @HttpCode(200)
  probe(@Param() { probeId }: ProbeParams, @Query() { code, size }: ProbeQuery, @Body() { note }: ProbeBody) {
    return { probeId: typeof probeId, code, size: typeof size, note };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('query and path parameters, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({}, { imports: [ProbeModule] });
  });
  afterAll(() => petstore?.close());

  const get = (url: string) => petstore.fastify.inject({ method: 'GET', url, headers: AUTH });
  const refusal = (message: string) => ({ code: 'VALIDATION_FAILED', message, status: 400 });

  it('takes the bounds of an int32 and of an int64, and a default', async () => {
    for (const url of [
      '/v1/pets',
      '/v1/pets?limit=1',
      '/v1/pets?limit=100&after=9223372036854775807',
      '/v1/pets?after=-9223372036854775808',
    ]) {
      expect({ url, status: (await get(url)).statusCode }).toEqual({ url, status: 200 });
    }
  });

  it.each(['0', '101', '1e1', '+5', '05', ' 5', '5.0', '', 'ten', '-0'])('refuses limit=%p, naming the bounds', async (limit) => {
    const answer = await get(`/v1/pets?limit=${encodeURIComponent(limit)}`);
    expect([answer.statusCode, answer.json()]).toEqual([400, refusal('limit must be an integer from 1 to 100')]);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '01', '1.5', 'x'])('refuses after=%p as no 64-bit integer', async (after) => {
    expect((await get(`/v1/pets?after=${after}`)).json()).toEqual(refusal('after must be a 64-bit integer'));
  });

  it('refuses a value outside an enum, listing the values', async () => {
    expect((await get('/v1/pets?status=lost')).json()).toEqual(refusal('status must be one of available, pending, sold'));
  });

  it.each(['limit=1&limit=2', 'status=sold&status=pending'])(
    'refuses the repeated parameter in %s, saying it is given once',
    async (query) => {
      const name = query.split('=')[0];
      expect((await get(`/v1/pets?${query}`)).json()).toEqual(refusal(`${name} must be given once`));
    },
  );

  it.each([
    ['offset=10', 'offset'],
    ['page=2', 'page'],
    ['limt=5', 'limt'],
  ])('refuses the unknown query parameter in %s, naming it and the ones taken', async (query, name) => {
    const answer = await get(`/v1/pets?${query}`);
    expect([answer.statusCode, answer.json()]).toEqual([
      400,
      refusal(`Unknown query parameter ${name}: the query takes only limit, status, after`),
    ]);
  });

  it('names every unknown query parameter at once', async () => {
    expect((await get('/v1/pets?limit=5&offset=10&page=2')).json()).toEqual(
      refusal('Unknown query parameters offset, page: the query takes only limit, status, after'),
    );
  });

  it('refuses a query on an operation that takes none', async () => {
    expect((await get('/v1/pets/1?fields=name')).json()).toEqual(
      refusal('Unknown query parameter fields: this operation takes no query parameters'),
    );
  });

  it.each(['9223372036854775808', '1e3', '+1', '-0'])('refuses the path %p', async (id) => {
    expect((await get(`/v1/pets/${id}`)).json()).toEqual(refusal('petId must be a 64-bit integer'));
  });

  it.each(['9223372036854775807', '-9223372036854775808', '0'])('takes the path int64 %s', async (id) => {
    expect((await get(`/v1/pets/${id}`)).json()).toEqual({ code: 'PET_NOT_FOUND', message: `No pet with id ${id}`, status: 404 });
  });

  describe("a DTO's rules", () => {
    const probe = (url: string, note = 'ok') =>
      petstore.fastify.inject({ method: 'POST', url, headers: { ...AUTH, 'content-type': 'application/json' }, payload: { note } });

    it('hands over the input as checked, integers as the document types them', async () => {
      const answer = await probe('/v1/probes/9223372036854775807?code=ab&size=3');
      expect([answer.statusCode, answer.json()]).toEqual([200, { probeId: 'bigint', code: 'ab', size: 'number', note: 'ok' }]);
    });

    it("refuses a query that breaks its DTO's rules, naming every problem", async () => {
      expect((await probe('/v1/probes/1?code=ABCDE&size=10')).json()).toEqual(
        refusal('code must be 2 to 4 characters long; code must be lower-case letters; size must be an integer from 1 to 9'),
      );
      expect((await probe('/v1/probes/1')).json()).toEqual(refusal('code is required'));
    });

    it("refuses a path that breaks its DTO's rules", async () => {
      expect((await probe('/v1/probes/0?code=ab')).json()).toEqual(refusal('probeId must be an integer from 1 to 9223372036854775807'));
    });

    it("refuses a body that breaks its DTO's rules", async () => {
      expect((await probe('/v1/probes/1?code=ab', 'long')).json()).toEqual(refusal('note must be at most 3 characters long'));
    });

    it('documents the rules it enforces', () => {
      const operation = petstore.document.paths['/probes/{probeId}'].post;
      expect(operation?.parameters).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'code',
            in: 'query',
            required: true,
            schema: expect.objectContaining({ minLength: 2, maxLength: 4, pattern: '^[a-z]*$' }),
            // Swagger leaves a parameter's extensions beside its schema.
            'x-pattern-means': 'must be lower-case letters',
          }),
          expect.objectContaining({
            name: 'size',
            in: 'query',
            required: false,
            schema: expect.objectContaining({ minimum: 1, maximum: 9 }),
          }),
          expect.objectContaining({ name: 'probeId', in: 'path', schema: expect.objectContaining({ format: 'int64', minimum: 1 }) }),
        ]),
      );
    });
  });
});
