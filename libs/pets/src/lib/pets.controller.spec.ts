import { Injectable, Module } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AJV_OPTIONS, readyInProcess, registerJsonBodyParser, registerResponseHeaders } from '@petstore/core';
import { type CreateOnceResult, type NewPet, type Pet, type PetQuery, PetRepository, type PetStatus } from '@petstore/domain';
import type { FastifyInstance } from 'fastify';
import { PetsModule } from './pets.module';

// The controller in process: PetsModule on Fastify with pets in memory, driven by inject.

@Injectable()
class PetsInMemory extends PetRepository {
  private readonly pets: Pet[] = [];

  async list({ limit, status, after }: PetQuery): Promise<Pet[]> {
    return this.pets.filter((pet) => (!status || pet.status === status) && (after === undefined || pet.id > after)).slice(0, limit);
  }

  async findById(id: bigint): Promise<Pet | undefined> {
    return this.pets.find((pet) => pet.id === id);
  }

  async create(pet: NewPet & { readonly status: PetStatus }): Promise<Pet> {
    const created = { ...pet, id: BigInt(this.pets.length + 1) };
    this.pets.push(created);
    return created;
  }

  async createOnce(): Promise<CreateOnceResult> {
    throw new Error('not used here');
  }

  async deleteExpiredIdempotencyRecords(): Promise<number> {
    return 0;
  }
}

@Module({ providers: [PetsInMemory], exports: [PetsInMemory] })
class InMemoryModule {}

async function petsApp(): Promise<FastifyInstance> {
  const moduleRef = await Test.createTestingModule({
    imports: [PetsModule.register({ imports: [InMemoryModule], repository: PetsInMemory, idempotency: { lifetimeSeconds: 60 } })],
  }).compile();
  const adapter = new FastifyAdapter({ ajv: AJV_OPTIONS });
  // What main.ts registers that the routes rely on: the exact JSON parser, the route headers.
  registerJsonBodyParser(adapter.getInstance());
  registerResponseHeaders(adapter.getInstance());
  const app = moduleRef.createNestApplication<NestFastifyApplication>(adapter, { logger: false, bodyParser: false });
  return readyInProcess(app);
}

describe('PetsController', () => {
  let fastify: FastifyInstance;
  const create = (name: string, status = 'available') =>
    fastify.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      payload: { name, categoryId: 1, status },
    });

  beforeEach(async () => {
    fastify = await petsApp();
  });

  afterEach(async () => {
    await fastify.close();
  });

  it('answers a create with 201, the pet with exact int64 digits, and its Location', async () => {
    const response = await fastify.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"Rex","categoryId":9223372036854775807}',
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"}');
    expect(response.headers['location']).toBe('/v1/pets/1');
  });

  it('links a full page to the next one, keeping the filter, and a short page to nothing', async () => {
    for (const name of ['A', 'B', 'C']) await create(name, 'sold');
    const full = await fastify.inject({ method: 'GET', url: '/v1/pets?limit=2&status=sold' });
    expect(full.headers['link']).toBe('</v1/pets?limit=2&status=sold&after=2>; rel="next"');
    const last = await fastify.inject({ method: 'GET', url: '/v1/pets?limit=2&status=sold&after=2' });
    expect(last.json()).toEqual([{ id: 3, name: 'C', categoryId: 1, status: 'sold' }]);
    expect(last.headers['link']).toBeUndefined();
  });

  it('answers an absent pet with 404 PET_NOT_FOUND and the deprecation headers', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/v1/pets/-5' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'PET_NOT_FOUND', message: 'No pet with id -5', status: 404 });
    expect(response.headers['sunset']).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it.each([
    ['a limit out of range', '/v1/pets?limit=101'],
    ['a petId that is no int64', '/v1/pets/9223372036854775808'],
  ])('answers %s with 400 VALIDATION_FAILED', async (_case, url) => {
    const response = await fastify.inject({ method: 'GET', url });
    expect([response.statusCode, response.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
