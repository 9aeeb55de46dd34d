import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error-body.dto';

/** What "ready to serve" means for this service; the app binds it (to a database ping). */
export abstract class ReadinessProbe {
  /** Resolves when ready; rejects (with StoreUnavailableError for a 503) otherwise. */
  abstract check(): Promise<void>;
}

const OK = { status: 'ok' } as const;

/** Public probes for orchestrators: liveness of the process and readiness to serve. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe) {}

  @Get('healthz')
  @ApiOperation({ operationId: 'health', summary: 'The process is alive' })
  @ApiOkResponse({ description: 'Alive', schema: { example: OK } })
  health(): typeof OK {
    return OK;
  }

  @Get('readyz')
  @ApiOperation({ operationId: 'ready', summary: 'The service can reach its database' })
  @ApiOkResponse({ description: 'Ready', schema: { example: OK } })
  @ApiServiceUnavailableResponse({ type: ErrorBody, description: 'The database is unreachable' })
  async ready(): Promise<typeof OK> {
    await this.readiness.check();
    return OK;
  }
}
