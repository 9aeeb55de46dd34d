import { Controller, Get, Module, Param, Query } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { AJV_OPTIONS } from './ajv-options';
import { registerExactJsonSerializer } from './exact-json-serializer';
import { readyInProcess } from './in-process-app';

// Route schemas come from the document: what a DTO and the OpenAPI decorators say is what ajv
// checks in the query and path, and what the answer's serializer writes.

class ThingsQuery {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 50, default: 10 })
  size!: number;

  @ApiPropertyOptional({ enum: ['red', 'blue'] })
  colour?: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int64' })
  after?: bigint;
}

class Thing {
  @ApiProperty({ type: 'integer', format: 'int64' })
  id!: bigint;

  @ApiProperty()
  label!: string;
}

@Controller('things')
class ThingsController {
  @Get()
  @ApiOperation({ operationId: 'listThings' })
  @ApiOkResponse({ type: [Thing] })
  list(@Query() query: ThingsQuery): Thing[] {
    // Echoes what the handler received, with the JS type of each value.
    return [{ id: query.after ?? 0n, label: `${typeof query.size}:${query.size} ${typeof query.after} ${query.colour}` }];
  }

  @Get(':thingId')
  @ApiOperation({ operationId: 'getThing' })
  @ApiOkResponse({ type: Thing })
  get(@Param('thingId') thingId: bigint): Thing & { secret: string } {
    return { id: thingId, label: typeof thingId, secret: 'never written' };
  }
}

@Controller('undocumented')
class UndocumentedController {
  @Get()
  list(): string[] {
    return [];
  }
}

async function appWith(...controllers: Array<new () => object>): Promise<FastifyInstance> {
  @Module({ controllers })
  class ThingsModule {}
  const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
  const adapter = new FastifyAdapter({ ajv: AJV_OPTIONS });
  // As main.ts: routes without a response schema are written by lossless-json, the others by theirs.
  registerExactJsonSerializer(adapter.getInstance());
  const app = moduleRef.createNestApplication<NestFastifyApplication>(adapter, { logger: false });
  return readyInProcess(app);
}

describe('route schemas from the OpenAPI document', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = await appWith(ThingsController);
  });
  afterAll(() => fastify.close());

  const get = (url: string) => fastify.inject({ method: 'GET', url });

  it('hands the handler an int32 as a number, its default applied, and an int64 as a bigint', async () => {
    expect((await get('/v1/things')).json()).toEqual([{ id: 0, label: 'number:10 undefined undefined' }]);
    const answer = await get('/v1/things?size=50&colour=blue&after=9223372036854775807');
    expect(answer.body).toBe('[{"id":9223372036854775807,"label":"number:50 bigint blue"}]');
  });

  it.each(['0', '51', '1e1', '+5', '05', ' 5', '5.0', '', 'ten', '-0'])('refuses size=%p, naming the bounds', async (size) => {
    const answer = await get(`/v1/things?size=${encodeURIComponent(size)}`);
    expect([answer.statusCode, answer.json()]).toEqual([
      400,
      { code: 'VALIDATION_FAILED', message: 'size must be an integer from 1 to 50', status: 400 },
    ]);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '01', '1.5', 'x'])('refuses after=%p as no 64-bit integer', async (after) => {
    expect((await get(`/v1/things?after=${after}`)).json()).toMatchObject({ status: 400, message: 'after must be a 64-bit integer' });
  });

  it('refuses a value outside an enum, listing the values', async () => {
    expect((await get('/v1/things?colour=green')).json()).toMatchObject({ status: 400, message: 'colour must be one of red, blue' });
  });

  it('refuses a repeated parameter', async () => {
    expect((await get('/v1/things?size=1&size=2')).statusCode).toBe(400);
  });

  it.each([
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['0', '0'],
  ])('checks a path int64 (%s) and writes only what the schema names', async (id, digits) => {
    expect((await get(`/v1/things/${id}`)).body).toBe(`{"id":${digits},"label":"bigint"}`);
  });

  it.each(['9223372036854775808', '1e3', '+1', '-0'])('refuses the path %p', async (id) => {
    expect((await get(`/v1/things/${id}`)).json()).toMatchObject({ status: 400, message: 'thingId must be a 64-bit integer' });
  });

  it('refuses to start a documented route without an operationId', async () => {
    await expect(appWith(ThingsController, UndocumentedController)).rejects.toThrow(
      'UndocumentedController.list needs @ApiOperation({ operationId })',
    );
  });
});
