import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/** What "ready to serve" means for this service; the app binds it (to a database ping). */
export abstract class ReadinessProbe {
  /** Resolves when ready; rejects (with StoreUnavailableError for a 503) otherwise. */
  abstract check(): Promise<void>;
}

const OK = { status: 'ok' } as const;

/**
 * Public probes for orchestrators: liveness of the process and readiness to serve. They live
 * outside /v1 and are not part of the API contract, so the OpenAPI document leaves them out.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe) {}

  @Get('healthz')
  health(): typeof OK {
    return OK;
  }

  @Get('readyz')
  async ready(): Promise<typeof OK> {
    await this.readiness.check();
    return OK;
  }
}
