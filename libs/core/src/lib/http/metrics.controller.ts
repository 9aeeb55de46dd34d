import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { register } from 'prom-client';

/**
 * Prometheus metrics (failed authentications, rate-limited requests), for the platform's
 * scraper like the probes: outside /v1, out of the API contract. The ingress should not
 * route it to the public.
 */
@ApiExcludeController()
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('content-type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
