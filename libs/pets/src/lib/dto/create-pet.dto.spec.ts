import { Body, Post } from '@nestjs/common';
import { AJV_OPTIONS, ApiController, registerJsonBodyParser, routeSchemaOf } from '@petstore/http';
import { toErrorResponse } from '@petstore/http-errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { CreatePetDto } from './create-pet.dto';

// NewPet's class-validator rules as Fastify enforces them (input-rules.ts, route-schemas.ts): the
// schema of a route taking CreatePetDto, given to a bare Fastify route.

@ApiController('pets')
class NewPetController {
  @Post()
  create(@Body() body: CreatePetDto): CreatePetDto {
    return body;
  }
}

async function fastifyCheckingNewPet(): Promise<FastifyInstance> {
  const fastify = Fastify({ ajv: AJV_OPTIONS });
  registerJsonBodyParser(fastify);
  fastify.setErrorHandler((error, _request, reply) => reply.status(400).send(toErrorResponse(error).body));
  fastify.post('/pets', { schema: routeSchemaOf(NewPetController, 'create') }, (request) => ({
    categoryIdType: typeof (request.body as CreatePetDto).categoryId,
  }));
  await fastify.ready();
  return fastify;
}

describe('NewPet (CreatePetDto), checked as documented', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = await fastifyCheckingNewPet();
  });
  afterAll(() => fastify.close());

  const create = (body: unknown) =>
    fastify.inject({
      method: 'POST',
      url: '/pets',
      headers: { 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const messageFor = async (body: unknown) => (await create(body)).json<{ message: string }>().message;

  it.each([
    ['the least', { name: 'R', categoryId: 1 }],
    ['a status', { name: 'Rex', categoryId: 1, status: 'sold' }],
    ['255 characters', { name: 'a'.repeat(255), categoryId: 1 }],
    ['255 emoji (510 UTF-16 units: code points are counted)', { name: '🐶'.repeat(255), categoryId: 1 }],
    ['text of every kind', { name: `O'Malley "the cat" 小白 Zoë 👍🏽 <script>`, categoryId: 1 }],
    ['the largest int64 category id', '{"name":"Rex","categoryId":9223372036854775807}'],
  ])('takes %s, its category id a bigint', async (_case, body) => {
    const answer = await create(body);
    expect([answer.statusCode, answer.json()]).toEqual([200, { categoryIdType: 'bigint' }]);
  });

  it('requires a name and a category id', async () => {
    expect(await messageFor({})).toBe('name is required; categoryId is required');
  });

  it.each([
    ['empty', ''],
    ['256 letters', 'a'.repeat(256)],
    ['256 emoji', '🐶'.repeat(256)],
  ])('refuses a name %s, naming its bounds', async (_case, name) => {
    expect(await messageFor({ name, categoryId: 1 })).toBe('name must be 1 to 255 characters long');
  });

  it.each(['Re\u0000x', 'Re\u001fx', 'Re\u007fx', 'Re\u0085x', 'Re\tx', 'Rex\n'])('refuses the control character in %j', async (name) => {
    expect(await messageFor({ name, categoryId: 1 })).toBe('name must not contain control characters');
  });

  it.each(['"Re\\ud800x"', '"\\udc00"'])('refuses the lone surrogate in %s', async (name) => {
    expect(await messageFor(`{"name":${name},"categoryId":1}`)).toBe('name must be valid Unicode (no lone surrogates)');
  });

  it.each([
    ['a number', 5, 'name must be a string'],
    ['null', null, 'name must be a string'],
  ])('refuses a name that is %s', async (_case, name, message) => {
    expect(await messageFor({ name, categoryId: 1 })).toBe(message);
  });

  it.each([
    ['a JSON number that is no integer literal', '1.0'],
    ['a string', '"1"'],
    ['above int64', '9223372036854775808'],
    ['below int64', '-9223372036854775809'],
    ['null', 'null'],
  ])('refuses a category id that is %s', async (_case, categoryId) => {
    expect(await messageFor(`{"name":"Rex","categoryId":${categoryId}}`)).toBe('categoryId must be a 64-bit integer');
  });

  it.each([null, 'lost', 'SOLD'])('refuses the status %p, listing the values', async (status) => {
    expect(await messageFor({ name: 'Rex', categoryId: 1, status })).toBe('status must be one of available, pending, sold');
  });

  it('lists every problem, joined with "; "', async () => {
    expect((await messageFor({ categoryId: '1', status: 'lost', id: 7 })).split('; ').sort()).toEqual([
      'Unknown body property id: the body takes only name, categoryId, status',
      'categoryId must be a 64-bit integer',
      'name is required',
      'status must be one of available, pending, sold',
    ]);
  });
});
