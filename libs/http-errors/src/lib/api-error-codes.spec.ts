import { Controller, Get, Module } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiErrorCodes, documentErrorCodes, errorCodesOf } from './api-error-codes';
import { ApiErrorResponse } from './api-error-response.decorator';
import { HttpErrorCode } from './error-code';

// The codes a feature raises are its own: here two features of the test's, which the shared lib
// knows only through what their controllers declare.

@ApiErrorCodes(['THING_NOT_FOUND', 'THING_LOCKED'])
@Controller('things')
class ThingsController {
  @Get()
  @ApiErrorResponse(404, 'No such thing', 'THING_NOT_FOUND', 'No thing with id 1')
  list(): string[] {
    return [];
  }
}

@ApiErrorCodes(['WIDGET_JAMMED', 'THING_LOCKED', HttpErrorCode.RateLimited])
@Controller('widgets')
class WidgetsController {
  @Get()
  list(): string[] {
    return [];
  }
}

@Controller('plain')
class PlainController {
  @Get()
  list(): string[] {
    return [];
  }
}

/** What errorCodesOf and documentErrorCodes make of an application with these controllers, without init. */
async function withApp<T>(controllers: Array<new () => object>, use: (app: NestFastifyApplication) => T): Promise<T> {
  @Module({ controllers })
  class FeaturesModule {}
  const moduleRef = await Test.createTestingModule({ imports: [FeaturesModule] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  try {
    return use(app);
  } finally {
    await app.close();
  }
}

describe('errorCodesOf', () => {
  it("lists the protocol's codes, then each controller's own, once each", async () => {
    const codes = await withApp([ThingsController, PlainController, WidgetsController], errorCodesOf);
    expect(codes).toEqual([...Object.values(HttpErrorCode), 'THING_NOT_FOUND', 'THING_LOCKED', 'WIDGET_JAMMED']);
  });

  it("is the protocol's codes alone when no controller declares any", async () => {
    expect(await withApp([PlainController], errorCodesOf)).toEqual(Object.values(HttpErrorCode));
  });
});

describe('documentErrorCodes', () => {
  it("makes the document's ErrorCode schema list every code", async () => {
    const document = await withApp([ThingsController, WidgetsController], (app) => {
      const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
      documentErrorCodes(app, document);
      return document;
    });
    expect(document.components?.schemas?.['ErrorCode']).toMatchObject({
      type: 'string',
      enum: [...Object.values(HttpErrorCode), 'THING_NOT_FOUND', 'THING_LOCKED', 'WIDGET_JAMMED'],
    });
  });

  it('refuses a document without the Error body, which has nowhere to list them', async () => {
    await expect(withApp([PlainController], (app) => documentErrorCodes(app, { components: {} } as OpenAPIObject))).rejects.toThrow(
      'The document has no ErrorCode schema',
    );
  });
});
