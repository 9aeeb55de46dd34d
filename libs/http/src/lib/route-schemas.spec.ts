import { Controller, Get, Module } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ApiOkResponse, ApiOperation, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { applyRouteSchemas } from './route-schemas';

// What ajv checks and the serializer writes, from the document, is shown on the real application
// (apps/api, query-and-path.spec.ts); here, the check made at start.

@Controller('things')
class ThingsController {
  @Get()
  @ApiOperation({ operationId: 'listThings' })
  @ApiOkResponse({ type: [String] })
  list(): string[] {
    return [];
  }
}

@Controller('undocumented')
class UndocumentedController {
  @Get()
  list(): string[] {
    return [];
  }
}

/** The routes' schemas applied as createApp does, without init: nothing is registered with Fastify. */
async function applyTo(...controllers: Array<new () => object>): Promise<void> {
  @Module({ controllers })
  class ThingsModule {}
  const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  try {
    applyRouteSchemas(app, SwaggerModule.createDocument(app, new DocumentBuilder().build()));
  } finally {
    await app.close();
  }
}

describe('applyRouteSchemas', () => {
  it('gives documented routes their schemas', async () => {
    await expect(applyTo(ThingsController)).resolves.toBeUndefined();
  });

  it('refuses to start a documented route without an operationId', async () => {
    await expect(applyTo(ThingsController, UndocumentedController)).rejects.toThrow(
      'UndocumentedController.list needs @ApiOperation({ operationId })',
    );
  });
});
