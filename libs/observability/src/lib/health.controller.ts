import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@petstore/http';

/** What "ready to serve" means for this service; the app binds it (to a database check). */
export abstract class ReadinessProbe {
  /**
   * Resolves with what is degraded (each a short sentence, none when all is well) while the
   * service can serve; rejects (with StoreUnavailableError for a 503) when it cannot serve at all.
   */
  abstract check(): Promise<readonly string[]>;
}

const OK = { status: 'ok' } as const;

/** A service that serves, but not everything: it stays in rotation, and says what is missing. */
interface Degraded {
  readonly status: 'degraded';
  readonly degraded: readonly string[];
}

/**
 * Public probes for orchestrators: liveness of the process and readiness to serve. They live
 * outside /v1 and are not part of the API contract, so the OpenAPI document leaves them out.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe) {}

  @Get('healthz')
  @Public()
  health(): typeof OK {
    return OK;
  }

  @Get('readyz')
  @Public()
  async ready(): Promise<typeof OK | Degraded> {
    const degraded = await this.readiness.check();
    return degraded.length === 0 ? OK : { status: 'degraded', degraded };
  }
}
