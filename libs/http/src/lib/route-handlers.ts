import type { INestApplication, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';

/** One route handler of a controller, as the checks made at start see it. */
export interface RouteHandler {
  /** The controller class. */
  readonly controller: Type;
  readonly prototype: object;
  readonly method: string;
  readonly handler: object;
}

/** Every route handler of every controller of the application, read from Nest's metadata before init. */
export function* routeHandlers(app: INestApplication): Generator<RouteHandler> {
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, object>;
      for (const method of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method];
        if (Reflect.getMetadata(PATH_METADATA, handler) !== undefined) yield { controller: metatype as Type, prototype, method, handler };
      }
    }
  }
}
