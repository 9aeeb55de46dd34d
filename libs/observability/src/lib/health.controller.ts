import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@petstore/http';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';
import { Drain } from './drain';

/** What "ready to serve" means for this service; the app binds it (to a database check). */
export abstract class ReadinessProbe {
  /** What is degraded (short sentences, none when all is well); rejects (StoreUnavailableError: 503) when it cannot serve. */
  abstract check(): Promise<readonly string[]>;
}

const OK = { status: 'ok' } as const;

/** A service that serves, but not everything: it stays in rotation, and says what is missing. */
interface Degraded {
  readonly status: 'degraded';
  readonly degraded: readonly string[];
}

/** Liveness and readiness probes for orchestrators: outside /v1 and the API contract, so out of the document. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: ReadinessProbe,
    private readonly drain: Drain,
  ) {}

  @Get('healthz')
  @Public()
  health(): typeof OK {
    return OK;
  }

  @Get('readyz')
  @Public()
  async ready(): Promise<typeof OK | Degraded> {
    if (this.drain.draining) {
      throw new ApiException(HttpErrorCode.ServiceUnavailable, 503, 'Shutting down: send new requests to another instance');
    }
    const degraded = await this.readiness.check();
    return degraded.length === 0 ? OK : { status: 'degraded', degraded };
  }
}
