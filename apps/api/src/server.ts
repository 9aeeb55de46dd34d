import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type AppConfig, configVariablesHelp, InvalidConfigError, loadConfig } from '@petstore/config';
import { type Drain, serveMetricsOnOwnPort, stopTracing, TRACING_HELP } from '@petstore/observability';
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DOCS_PATH } from './api-docs';
import { API_PREFIX } from './app.module';
import { createApp } from './create-app';

function usage(): string {
  return [
    'Petstore HTTP API (NestJS on Fastify): serves /v1, /docs, /healthz, /readyz and /metrics until SIGTERM or SIGINT',
    '(/metrics in production only on METRICS_PORT, or with METRICS_TOKEN).',
    '',
    'Usage: node dist/apps/api/src/main.js      (npm start builds first)',
    '',
    'No arguments. Configured by these environment variables, read once at start and validated (values',
    'are trimmed, and an empty one is unset; more in README.md, "Configuration"): name, default, meaning.',
    ...configVariablesHelp(),
    'Without DATABASE_URL it runs on an embedded PostgreSQL (PGlite) under DATA_DIR.',
    '',
    ...TRACING_HELP,
  ].join('\n');
}

async function bootstrap(config: AppConfig): Promise<void> {
  const { app, metrics, drain } = await createApp(config);
  const { port: metricsPort, token: metricsToken } = config.metrics;
  const metricsServer =
    metricsPort === undefined ? undefined : await serveMetricsOnOwnPort(metrics, metricsPort, config.host, metricsToken);
  await app.listen({ port: config.port, host: config.host });
  // With nothing awaited since the API began to listen: a SIGTERM once it answers is always the shutdown's, never the default kill.
  const log = app.getHttpAdapter().getInstance().log;
  closeGracefully(app, log, { drain, drainMs: config.shutdownDrainMs }, metricsServer);
  const origin = originOf(config.host, (app.getHttpServer().address() as AddressInfo).port);
  log.info(`Serving the API at ${origin}/${API_PREFIX} and its documentation at ${origin}/${DOCS_PATH}`);
}

/** Where a person on this machine reaches the service: a wildcard address at localhost. */
function originOf(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** How long requests in flight get to finish once the service stops accepting, before the process exits anyway. */
const FINISH_MS = 4_000;

/**
 * On SIGTERM: drain (out of readiness, still serving, each answer closing its connection) for drainMs, then stop accepting, let
 * requests finish, close the database, exit; drain and finish together within Docker's 10 s. On SIGINT or an uncaught error,
 * no drain. A second signal ends it at once (close-with-grace).
 */
function closeGracefully(
  app: NestFastifyApplication,
  log: FastifyBaseLogger,
  { drain, drainMs }: { readonly drain: Drain; readonly drainMs: number },
  metricsServer?: Server,
): void {
  closeWithGrace({ delay: drainMs + FINISH_MS, logger: log }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'Uncaught error: shutting down');
    else log.info(`${signal ?? 'exit'} received: shutting down`);
    const server = app.getHttpServer();
    if (signal === 'SIGTERM' && drainMs > 0) {
      drain.start(server);
      log.info(`Draining for ${drainMs} ms: /readyz answers 503, answers close their connections`);
      await sleep(drainMs);
    }
    metricsServer?.close();
    // Else a keep-alive connection that finishes after close() began holds the server open until its idle timeout.
    setInterval(() => server.closeIdleConnections(), 50).unref();
    await app.close();
    await stopTracing((message) => log.warn(message));
  });
}

function readConfig(env: NodeJS.ProcessEnv): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** What main.ts runs: `--help` prints the usage (CI runs it on the image's files); else serve until a signal. */
export function runFromCommandLine(args: readonly string[], env: NodeJS.ProcessEnv): void {
  if (['--help', '-h'].includes(args[0] ?? '')) {
    console.log(usage());
    process.exit(0);
  }
  bootstrap(readConfig(env)).catch((error: unknown) => {
    console.error(`The service failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
