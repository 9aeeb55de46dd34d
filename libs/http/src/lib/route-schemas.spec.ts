import { Body, Get, Headers, Param, Post, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { toErrorResponse } from '@petstore/http-errors';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import { AJV_OPTIONS } from './ajv-options';
import { ApiModel, IsInt64 } from './input-rules';
import { registerJsonBodyParser } from './json-body.parser';
import { ApiController, routeSchemaOf } from './route-schemas';

// How a handler's declarations become its route's schema, and how each kind of input is checked and
// refused. The service's own operations: apps/api (own-app/query-and-path.spec.ts, route-schemas.spec.ts).

@ApiModel()
class ThingPath {
  @IsInt()
  @Min(1)
  thingId!: number;
}

@ApiModel()
class ThingQuery {
  @IsOptional()
  @IsString()
  @MaxLength(2)
  code?: string;
}

@ApiModel()
class NewThing {
  @IsString()
  @Length(1, 3)
  @Matches(/^[a-z]*$/, { message: 'must be lower-case letters' })
  label!: string;

  @IsOptional()
  @IsInt()
  @Max(9)
  size?: number;

  @IsInt64()
  weight!: bigint;

  @IsOptional()
  @IsIn(['small', 'large'])
  kind?: string;
}

@ApiModel()
class Thing {
  @ApiProperty({ type: 'integer', format: 'int64' })
  id!: bigint;
}

@ApiController('things')
class ThingsController {
  @Get(':thingId')
  @ApiResponse({ status: 200, type: Thing })
  get(@Param() { thingId }: ThingPath, @Query() _query: ThingQuery) {
    return { id: thingId, secret: 'never sent' };
  }

  @Get()
  @ApiExtraModels(Thing)
  @ApiResponse({ status: 200, schema: { type: 'array', items: { $ref: getSchemaPath(Thing) } } })
  list() {
    return [{ id: 9223372036854775807n, secret: 'never sent' }];
  }

  @Post()
  create(@Body() body: NewThing) {
    return { weightPlusOne: String(body.weight + 1n) };
  }
}

/** Each route of the controller on a bare Fastify, under `prefix`, with the schema its handler declares. */
async function fastifyServing(prefix: string): Promise<FastifyInstance> {
  const fastify = Fastify({ ajv: AJV_OPTIONS });
  registerJsonBodyParser(fastify);
  fastify.setErrorHandler((error, _request, reply) => {
    const { status, body } = toErrorResponse(error);
    return reply.status(status).send(body);
  });
  const things = new ThingsController();
  fastify.get(`${prefix}/things/:thingId`, { schema: routeSchemaOf(ThingsController, 'get') }, (request) =>
    things.get(request.params as ThingPath, request.query as ThingQuery),
  );
  fastify.get(`${prefix}/things`, { schema: routeSchemaOf(ThingsController, 'list') }, () => things.list());
  fastify.post(`${prefix}/things`, { schema: routeSchemaOf(ThingsController, 'create') }, (request) =>
    things.create(request.body as NewThing),
  );
  await fastify.ready();
  return fastify;
}

const refusal = (message: string) => ({ code: 'VALIDATION_FAILED', message, status: 400 });

describe.each(['/v1', '/elsewhere'])("a handler's route schema, the route served under %s", (prefix) => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = await fastifyServing(prefix);
  });
  afterAll(() => fastify.close());

  const post = (payload: string) =>
    fastify.inject({ method: 'POST', url: `${prefix}/things`, headers: { 'content-type': 'application/json' }, payload });

  it("checks the path by its @Param() DTO and serializes the answer its ApiResponse names, whatever the route's URL", async () => {
    expect((await fastify.inject(`${prefix}/things/7`)).json()).toEqual({ id: 7 });
    expect((await fastify.inject(`${prefix}/things/0`)).json()).toEqual(refusal('thingId must be an integer from 1 to 2147483647'));
  });

  it('serializes the items of an array answer by the class its schema names, int64 exact', async () => {
    expect((await fastify.inject(`${prefix}/things`)).body).toBe('[{"id":9223372036854775807}]');
  });

  it("checks the input of a GET's HEAD route as the GET's", async () => {
    expect((await fastify.inject({ method: 'HEAD', url: `${prefix}/things/0` })).statusCode).toBe(400);
    expect((await fastify.inject({ method: 'HEAD', url: `${prefix}/things/7` })).statusCode).toBe(200);
  });

  it('checks the query by its @Query() DTO, and refuses a query a handler takes none of', async () => {
    expect((await fastify.inject(`${prefix}/things/7?code=abc`)).json()).toEqual(refusal('code must be at most 2 characters long'));
    expect((await fastify.inject(`${prefix}/things?code=a`)).json()).toEqual(
      refusal('Unknown query parameter code: this operation takes no query parameters'),
    );
  });

  it('hands over a body as checked, its int64 exact', async () => {
    const answer = await post('{"label":"ab","weight":9223372036854775806,"size":9}');
    expect([answer.statusCode, answer.json()]).toEqual([200, { weightPlusOne: '9223372036854775807' }]);
  });

  it("lists every problem of a body, in its rules' own words", async () => {
    const answer = await post('{"label":"ABCD","size":10,"kind":null,"colour":"red","shape":1}');
    expect(answer.json<{ message: string }>().message.split('; ').sort()).toEqual([
      'Unknown body properties colour, shape: the body takes only label, size, weight, kind',
      'kind must be one of small, large',
      'label must be 1 to 3 characters long',
      'label must be lower-case letters',
      'size must be an integer from -2147483648 to 9',
      'weight is required',
    ]);
  });

  it.each([
    ['a number', '{"label":"a","weight":1.5}', 'weight must be a 64-bit integer'],
    ['a string', '{"label":"a","weight":"1"}', 'weight must be a 64-bit integer'],
    ['above int64', '{"label":"a","weight":9223372036854775808}', 'weight must be a 64-bit integer'],
    [
      'a lone surrogate',
      '{"label":"\\ud800","weight":1}',
      'label must be valid Unicode (no lone surrogates); label must be lower-case letters',
    ],
    ['a number for a string', '{"label":5,"weight":1}', 'label must be a string'],
    ['null for an optional string', '{"label":"a","weight":1,"kind":null}', 'kind must be one of small, large'],
    ['null', 'null', 'Request body must be a JSON object'],
    ['an array', '[]', 'Request body must be a JSON object'],
  ])('refuses %s where the schema says otherwise', async (_case, payload, message) => {
    expect((await post(payload)).json()).toEqual(refusal(message));
  });

  it.each(['toString', '__proto__', 'constructor'])('refuses the inherited name %s as an unknown property', async (key) => {
    expect((await post(`{"label":"a","weight":1,${JSON.stringify(key)}:1}`)).json()).toEqual(
      refusal(`Unknown body property ${key}: the body takes only label, size, weight, kind`),
    );
  });
});

/**
 * Declares `@ApiController('things') class Things { @Post() handle(<decorator> input: <type>) {} }`, as TypeScript would emit it
 * for each case (its `design:paramtypes` included), and returns what declaring it throws.
 */
function declaringThrows(decorator: ParameterDecorator, type: unknown): () => void {
  return () => {
    class Things {
      handle(_input: unknown) {}
    }
    Reflect.defineMetadata('design:paramtypes', [type], Things.prototype, 'handle');
    decorator(Things.prototype, 'handle', 0);
    Post()(Things.prototype, 'handle', Object.getOwnPropertyDescriptor(Things.prototype, 'handle') as PropertyDescriptor);
    ApiController('things')(Things);
  };
}

@ApiModel()
class Nullable {
  @IsOptional()
  @IsString()
  @ApiPropertyOptional({ nullable: true })
  label?: string | null;
}

class Undeclared {
  @IsString()
  @ApiProperty()
  label!: string;
}

// It may add rules of its own, which only its own declaration would document.
class UndeclaredSubclass extends NewThing {}

@ApiModel()
class Ratio {
  @ApiProperty()
  ratio!: number;
}

describe('ApiController at start: a declaration the route would not check stops it, naming the fix', () => {
  it.each([
    ['a @Body() typed with an interface', Body(), Object, 'Things.handle: its @Body is not checked: take the whole @Body as one DTO class'],
    [
      'a query parameter taken by name',
      Query('code'),
      ThingQuery,
      'Things.handle: its @Query is not checked: take the whole @Query as one DTO class',
    ],
    [
      'a header read with @Headers()',
      Headers('if-match'),
      String,
      'Things.handle: a header read with @Headers() is neither checked nor documented',
    ],
    [
      'an @ApiProperty option that documents what the route would not check (nullable)',
      Body(),
      Nullable,
      "Nullable.label: @ApiProperty's nullable would be documented but not checked; remove it, or teach route-schemas.ts",
    ],
    [
      'a DTO whose rules are not documented (no @ApiModel())',
      Body(),
      Undeclared,
      'Things.handle: Undeclared documents no rules: declare the class @ApiModel() (@petstore/http)',
    ],
    [
      'a subclass of an @ApiModel() not declared itself',
      Body(),
      UndeclaredSubclass,
      'Things.handle: UndeclaredSubclass documents no rules: declare the class @ApiModel() (@petstore/http)',
    ],
    ['an input of a kind it cannot check yet (a number)', Body(), Ratio, 'ratio: number is no input route-schemas.ts checks yet'],
    [
      'the whole request taken with @Req()',
      Req(),
      Object,
      'Things.handle: takes the whole request or reply (@Req(), @Res(), @Next()), whose use no one can see from the route; take what it needs by a parameter decorator',
    ],
  ])('stops on %s', (_case, decorator, type, message) => {
    expect(declaringThrows(decorator, type)).toThrow(message);
  });
});
