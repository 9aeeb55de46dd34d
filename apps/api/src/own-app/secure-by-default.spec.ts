import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@petstore/http';
import type { FastifyInstance } from 'fastify';
import { AUTH, type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// Every route requires a bearer key unless its handler says Public, wherever its path is: routes
// of a module of this test's own, built into the real application.

@ApiExcludeController()
@Controller('added')
class AddedController {
  @Get()
  secured(): { readonly served: true } {
    return { served: true };
  }

  @Get('open')
  @Public()
  open(): { readonly served: true } {
    return { served: true };
  }
}

/** Routes outside /v1, registered with Fastify itself, as a plugin or a docs page would be. */
@Injectable()
class OutsideRoutes {
  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/outside', () => ({ served: true }));
    fastify.get('/outside/open', { config: { public: true } }, () => ({ served: true }));
  }
}

@Module({ controllers: [AddedController], providers: [OutsideRoutes] })
class AddedRoutesModule {}

describe('secure by default, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({}, { imports: [AddedRoutesModule] });
  });
  afterAll(() => petstore?.close());

  const get = (url: string, headers: Record<string, string> = {}) => petstore.fastify.inject({ method: 'GET', url, headers });

  it.each(['/v1/added', '/outside'])('refuses %s without a key, and serves it with one', async (url) => {
    const refused = await get(url);
    expect([refused.statusCode, refused.json()]).toEqual([401, expect.objectContaining({ code: 'UNAUTHORIZED' })]);
    expect((await get(url, AUTH)).json()).toEqual({ served: true });
  });

  it.each(['/v1/added/open', '/outside/open'])('serves %s, declared public, without a key', async (url) => {
    expect((await get(url)).json()).toEqual({ served: true });
  });

  it('answers a path no route serves with 404, key or not: nothing there to protect', async () => {
    expect((await get('/nowhere')).statusCode).toBe(404);
  });
});
