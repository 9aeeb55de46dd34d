import { type ArgumentMetadata, Body, Controller, Module, Post } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { assertEveryBodyValidated, JsonBodyValidationPipe } from './json-body-validation.pipe';

describe('JsonBodyValidationPipe', () => {
  const pipe = new JsonBodyValidationPipe();
  class Empty {}

  it.each<ArgumentMetadata['type']>(['query', 'param', 'custom'])('leaves %s arguments alone (ajv checks them)', async (type) => {
    const value = { anything: 'goes' };
    await expect(pipe.transform(value, { type, metatype: Empty })).resolves.toBe(value);
  });

  it.each([null, 'text', 1, [1]])('refuses a body that is not a JSON object (%p)', async (value) => {
    await expect(pipe.transform(value, { type: 'body', metatype: Empty })).rejects.toThrow('Request body must be a JSON object');
  });

  it('refuses a property the class does not declare, and one every object inherits', async () => {
    class Named {
      @IsString()
      name!: string;
    }
    const body = (value: object) => pipe.transform(value, { type: 'body', metatype: Named });
    await expect(body({ name: 'Rex' })).resolves.toEqual({ name: 'Rex' });
    await expect(body({ name: 'Rex', extra: 1 })).rejects.toThrow('property extra should not exist');
    await expect(body({ name: 'Rex', toString: 1 })).rejects.toThrow('property toString should not exist');
  });
});

class NamedBody {
  @IsString()
  name!: string;
}

interface UncheckedBody {
  name: string;
}

class UndecoratedBody {
  name!: string;
}

@Controller('checked')
class CheckedController {
  @Post()
  create(@Body() body: NamedBody): NamedBody {
    return body;
  }
}

@Controller('unchecked')
class InterfaceBodyController {
  @Post()
  create(@Body() body: UncheckedBody): UncheckedBody {
    return body;
  }
}

@Controller('undecorated')
class UndecoratedBodyController {
  @Post()
  create(@Body() body: UndecoratedBody): UndecoratedBody {
    return body;
  }
}

/** The check as createApp makes it: on the application's controllers, before init. */
async function checkBodiesOf(controller: new () => object): Promise<void> {
  @Module({ controllers: [controller] })
  class BodiesModule {}
  const moduleRef = await Test.createTestingModule({ imports: [BodiesModule] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  try {
    assertEveryBodyValidated(app);
  } finally {
    await app.close();
  }
}

describe('assertEveryBodyValidated', () => {
  it('accepts a body typed with a DTO class', async () => {
    await expect(checkBodiesOf(CheckedController)).resolves.toBeUndefined();
  });

  it.each([
    ['an interface', InterfaceBodyController, 'Object'],
    ['a class without rules', UndecoratedBodyController, 'UndecoratedBody'],
  ])('stops the start on a body typed with %s, naming the method and the fix', async (_case, controller, typeName) => {
    await expect(checkBodiesOf(controller)).rejects.toThrow(
      `${controller.name}.create: its @Body() is typed ${typeName}, which the validation pipe cannot check; ` +
        'type it with a DTO class whose properties carry class-validator decorators',
    );
  });
});
