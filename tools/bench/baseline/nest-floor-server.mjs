// The Nest floor: the petstore's three routes as the least a NestJS app on the service's versions
// can be (Nest on Fastify, a passport-http-bearer strategy behind AuthGuard('bearer'), ajv for the
// query, path and body, fast-json-stringify for each 2xx), sending the service's own statements
// (SERVICE_FACTS) on a pool of the service's size, and the lists' conditional GET (an ETag, SHA-256
// of the bytes; 304), which a careful app polled for its pages has too. None of the service's other
// features: no security headers, request ids, rate limits, logging, metrics, Idempotency-Key,
// deprecation headers or Link. So service/floor is what the service adds on top of NestJS itself.
// Plain JavaScript has no decorator syntax: each decorator is called as TypeScript would call it.
// Env: see baselineEnv in app.mjs.
import 'reflect-metadata';
import { Body, Controller, Get, Inject, Injectable, Module, NotFoundException, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter, RouteSchema } from '@nestjs/platform-fastify';
import { Strategy } from 'passport-http-bearer';
import { baselineEnv, conditionalGet, CREATE_BODY, createPool, LIST_QUERY, PET, serve } from './app.mjs';

const { port, databaseUrl, apiKey, facts } = baselineEnv('floor');
const pool = createPool(databaseUrl, 'petstore-floor');
const POOL = Symbol('POOL');
const SQL = facts.statements;

/** The key check, as plain as the bare baseline's: one string comparison. */
class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  validate(token) {
    return token === apiKey ? { keyId: 'bench' } : false;
  }
}
Injectable()(BearerStrategy);

class PetsController {
  constructor(pool) {
    this.pool = pool;
  }

  async list({ limit, status, after = SQL.firstPage }) {
    const statement = status ? { ...SQL.listByStatus, values: [status, after, limit] } : { ...SQL.list, values: [after, limit] };
    return (await this.pool.query(statement)).rows;
  }

  async get(petId) {
    const [pet] = (await this.pool.query({ ...SQL.findById, values: [petId] })).rows;
    if (!pet) throw new NotFoundException();
    return pet;
  }

  async create({ name, categoryId, status = 'available' }, reply) {
    const [pet] = (await this.pool.query({ ...SQL.insert, values: [name, String(categoryId), status] })).rows;
    reply.header('location', `/v1/pets/${pet.id}`);
    return pet;
  }
}

/** `@decorator` on a method and `@decorator` on each of its parameters, in TypeScript's order. */
function route(Class, method, decorators, parameterDecorators) {
  parameterDecorators.forEach((decorate, index) => decorate(Class.prototype, method, index));
  Reflect.decorate(decorators, Class.prototype, method, Object.getOwnPropertyDescriptor(Class.prototype, method));
}

// RouteSchema hands each schema to Fastify's route options: ajv checks the input, and the 2xx
// answer is written by the serializer compiled from it (int8 columns are BigInts here, which
// JSON.stringify refuses: a route without its schema would answer 500).
route(
  PetsController,
  'list',
  [Get(), RouteSchema({ querystring: LIST_QUERY, response: { 200: { type: 'array', items: PET } } })],
  [Query()],
);
route(
  PetsController,
  'get',
  [
    Get(':petId'),
    RouteSchema({ params: { type: 'object', properties: { petId: { type: 'integer', minimum: 1 } } }, response: { 200: PET } }),
  ],
  [Param('petId')],
);
route(PetsController, 'create', [Post(), RouteSchema({ body: CREATE_BODY, response: { 201: PET } })], [Body(), Res({ passthrough: true })]);
Inject(POOL)(PetsController, undefined, 0);
Reflect.decorate([Controller('v1/pets'), UseGuards(AuthGuard('bearer'))], PetsController);

class FloorModule {}
Module({ controllers: [PetsController], providers: [BearerStrategy, { provide: POOL, useValue: pool }] })(FloorModule);

// No Nest middleware: without @fastify/middie, as the service runs (docs/performance.md, "Reads at the Nest floor").
const app = await NestFactory.create(FloorModule, new FastifyAdapter({ skipMiddie: true }), { logger: false, abortOnError: false });
app.getHttpAdapter().getInstance().addHook('onSend', conditionalGet);
await serve(app, pool, port, () => app.listen(port, '127.0.0.1'));
