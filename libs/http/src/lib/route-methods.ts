import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The methods each of the API's operations serves (405's Allow, CORS's): the routes ApiController declares, learnt as Nest
 * registers them (a provider is made before); once all are registered (application bootstrap), any other method of their URLs
 * answers 405.
 */
@Injectable()
export class RouteMethods implements OnApplicationBootstrap {
  private readonly servedByUrl = new Map<string, Set<string>>();
  private readonly fastify: FastifyInstance;
  /** Set once the 405 routes are added: they serve nothing, so they are not learnt. */
  private complete = false;

  constructor(adapterHost: HttpAdapterHost) {
    this.fastify = adapterHost.httpAdapter.getInstance<FastifyInstance>();
    this.fastify.addHook('onRoute', (route) => {
      if (this.complete || !route.config?.operation) return;
      const served = this.servedByUrl.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) served.add(method);
      if (served.has('GET')) served.add('HEAD');
      this.servedByUrl.set(route.url, served);
    });
  }

  /** Every method some operation serves, in the usual order. */
  served(): string[] {
    const all = new Set([...this.servedByUrl.values()].flatMap((served) => [...served]));
    return METHODS.filter((method) => all.has(method));
  }

  /** Makes a method that a known route does not serve answer 405 with an Allow header, instead of Fastify's 404. */
  onApplicationBootstrap(): void {
    this.complete = true;
    for (const [url, served] of this.servedByUrl) {
      const allow = METHODS.filter((method) => served.has(method)).join(', ');
      this.fastify.route({
        method: METHODS.filter((method) => !served.has(method)),
        url,
        handler: () => {
          throw new ApiException(HttpErrorCode.MethodNotAllowed, 405, `Method not allowed; ${url} allows ${allow}`, { allow });
        },
      });
    }
  }
}
