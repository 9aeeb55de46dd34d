import { Controller, Get, Injectable, Module, Req } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ApiOperation } from '@nestjs/swagger';
import { readyInProcess } from '@petstore/core';
import { ApiKeyRepository, type StoredApiKey } from '@petstore/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthModule } from './auth.module';

// The bearer hook in process: a Nest app on Fastify with one protected route, driven by inject.

@Controller('things')
class ThingsController {
  @Get()
  @ApiOperation({ operationId: 'listThings' })
  list(@Req() request: FastifyRequest): { keyId?: string } {
    return { keyId: request.principal?.keyId };
  }
}

/** No issued keys: every key that is not a bootstrap key is unknown. */
@Injectable()
class NoIssuedKeys extends ApiKeyRepository {
  insert = async () => undefined;
  findByPrefix = async (): Promise<StoredApiKey | undefined> => undefined;
  list = async () => [];
  revoke = async () => undefined;
  touch = async () => undefined;
}

@Module({ providers: [NoIssuedKeys], exports: [NoIssuedKeys] })
class NoIssuedKeysModule {}

const KEYS = ['first-key-0123456789', 'second-key-0123456789'];

async function appWithAuth(): Promise<FastifyInstance> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      AuthModule.register({
        apiKeys: KEYS,
        protectedPrefix: '/v1/',
        imports: [NoIssuedKeysModule],
        keyRepository: NoIssuedKeys,
        rateLimits: { perKeyPerMinute: 2, authFailuresPerMinute: 2 },
      }),
    ],
    controllers: [ThingsController],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  return readyInProcess(app);
}

describe('BearerAuthHook', () => {
  let fastify: FastifyInstance;
  const get = (authorization?: string, url = '/v1/things') =>
    fastify.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  beforeEach(async () => {
    fastify = await appWithAuth();
  });

  afterEach(async () => {
    await fastify.close();
  });

  it('admits a bootstrap key, names it env-N, and reports its rate limit', async () => {
    const response = await get(`Bearer ${KEYS[1]}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ keyId: 'env-2' });
    expect(response.headers['ratelimit-policy']).toBe('"per-key";q=2;w=60');
    expect(response.headers['ratelimit']).toMatch(/^"per-key";r=1;t=\d+$/);
  });

  it.each([
    ['no header', undefined, 'Bearer realm="petstore"'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Bearer realm="petstore", error="invalid_request"'],
    ['an unknown key', 'Bearer not-a-key-0123456789', 'Bearer realm="petstore", error="invalid_token"'],
  ])('refuses %s with 401, the Error body and the challenge', async (_case, authorization, challenge) => {
    const response = await get(authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
    expect(response.headers['www-authenticate']).toBe(challenge);
    expect(response.headers['ratelimit-policy']).toBe('"auth-failures";q=2;w=60');
  });

  it('never takes the key from the query string', async () => {
    expect((await get(undefined, `/v1/things?access_token=${KEYS[0]}`)).statusCode).toBe(401);
  });

  it("answers 429 past a key's limit, for that key only", async () => {
    for (let request = 0; request < 2; request++) expect((await get(`Bearer ${KEYS[0]}`)).statusCode).toBe(200);
    const refused = await get(`Bearer ${KEYS[0]}`);
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(`Bearer ${KEYS[1]}`)).statusCode).toBe(200);
  });

  it('throttles the failures of an address past its budget with 429, and still admits a valid key from it', async () => {
    for (let request = 0; request < 2; request++) expect((await get('Bearer wrong-key-0123456789')).statusCode).toBe(401);
    expect((await get('Bearer wrong-key-0123456789')).statusCode).toBe(429);
    expect((await get(`Bearer ${KEYS[1]}`)).statusCode).toBe(200);
  });
});
