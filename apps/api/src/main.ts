// First: the modules imported after it are compiled once and cached on disk (Node 22.1 and later).
import './compile-cache';
// Second, before the heap grows: how far V8 lets it grow (README, "Performance", memory).
import './heap-growth';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { developmentApiKey } from '@petstore/auth';
import {
  AccessLogController,
  AJV_OPTIONS,
  applyRouteSchemas,
  type AppConfig,
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  CONFIG_VARIABLES,
  corsOptions,
  ErrorBodyFilter,
  InvalidConfigError,
  JsonBodyValidationPipe,
  lazyChildLoggerFactory,
  loadConfig,
  NODE_SERVER_OPTIONS,
  PinoNestLogger,
  preparePrivateDataDir,
  registerExactJsonSerializer,
  registerJsonBodyParser,
  registerProtocolGuards,
  registerRequestMetrics,
  registerResponseHeaders,
  registerSecurityHeaders,
  requestIdFor,
  RouteMethods,
  sendError,
  serveMetricsOnOwnPort,
} from '@petstore/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'node:http';
import { createApiDocument, DOCS_PATH, serveApiDocs } from './api-docs';
import { API_PREFIX, AppModule } from './app.module';

/** What `main.js --help` prints: the service takes no arguments, only environment variables. */
function usage(): string {
  return [
    'Petstore HTTP API (NestJS on Fastify): serves /v1, /docs, /healthz, /readyz and /metrics until SIGTERM or SIGINT.',
    '',
    'Usage: node dist/apps/api/src/main.js      (npm start builds first)',
    '',
    'No arguments. Configured by these environment variables, read once at start and validated',
    '(defaults and meanings: README.md, "Configuration"):',
    ...CONFIG_VARIABLES.map((name) => `  ${name}`),
    'Without DATABASE_URL it runs on an embedded PostgreSQL (PGlite) under DATA_DIR.',
  ].join('\n');
}

async function bootstrap(config: AppConfig): Promise<void> {
  const adapter = new FastifyAdapter({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
      transport: config.production
        ? undefined
        : { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    },
    logController: new AccessLogController(['info', 'debug', 'trace'].includes(config.logLevel)),
    childLoggerFactory: lazyChildLoggerFactory,
    // No Nest middleware here: without middie, one hook less on every request.
    skipMiddie: true,
    trustProxy: trustProxyOption(config.trustProxy),
    // Slow or stalled clients hold a connection for a bounded time (README, "Time limits"); Node
    // checks the header and request limits every second instead of its default 30.
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler,
    http: { ...NODE_SERVER_OPTIONS, headersTimeout: config.httpTimeouts.headersMs, connectionsCheckingInterval: 1000 },
    frameworkErrors: sendError,
    // "/v1/pets/" is "/v1/pets", not a pet with an empty id.
    routerOptions: { ignoreTrailingSlash: true },
    ajv: AJV_OPTIONS,
  });
  const fastify = adapter.getInstance();
  registerProtocolGuards(fastify);
  registerJsonBodyParser(fastify);
  registerExactJsonSerializer(fastify);
  registerResponseHeaders(fastify);
  registerRequestMetrics(fastify);
  await registerSecurityHeaders(fastify, `/${DOCS_PATH}`);
  const apiRouteMethods = new RouteMethods(fastify, `/${API_PREFIX}/`);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, apiKeysOf(config, fastify.log)), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(fastify.log),
  });
  app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'readyz', 'metrics'] });
  if (config.corsOrigins.length > 0) app.enableCors(corsOptions(config.corsOrigins, () => apiRouteMethods.served()));
  app.useGlobalFilters(new ErrorBodyFilter());
  app.useGlobalPipes(new JsonBodyValidationPipe());
  // One document: what /docs shows, and the query, path and answer schemas of every route.
  const document = createApiDocument(app);
  applyRouteSchemas(app, document);
  serveApiDocs(app, document);
  await app.init();
  apiRouteMethods.answerOtherMethodsWith405();
  await app.listen({ port: config.port, host: config.host });
  const { port: metricsPort, token: metricsToken } = config.metrics;
  const metricsServer = metricsPort === undefined ? undefined : await serveMetricsOnOwnPort(metricsPort, config.host, metricsToken);
  closeGracefullyOnSignal(app, fastify.log, metricsServer);
}

/**
 * Fastify's trustProxy for the configured one. A hop count is passed as a function: Fastify 5.12
 * takes a bare number for "trust no proxy" (it fails closed), where proxy-addr counts hops.
 */
function trustProxyOption(trustProxy: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy === false ? false : [...trustProxy];
}

/** How long requests in flight get to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Stops accepting connections, lets requests in flight finish, closes the database, then exits 0. */
function closeGracefullyOnSignal(app: NestFastifyApplication, log: FastifyBaseLogger, metricsServer?: Server): void {
  const close = (signal: NodeJS.Signals) => {
    log.info(`${signal} received: shutting down`);
    metricsServer?.close();
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    // Keep-alive connections that finish their request after close() began would hold the
    // server open until their idle timeout: close each one as soon as it goes idle.
    const server = app.getHttpServer();
    setInterval(() => server.closeIdleConnections(), 50).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}

/**
 * The configured keys; in development without any, a key kept in the data directory. The key is
 * printed once, when it is created: logs are kept and shipped, and the file is where it lives.
 */
function apiKeysOf(config: AppConfig, log: FastifyBaseLogger): readonly string[] {
  if (config.apiKeys.length > 0 || config.production) return config.apiKeys;
  preparePrivateDataDir(config.dataDir, (message) => log.warn(message));
  const { key, created, file } = developmentApiKey(config.dataDir);
  log.warn(
    created
      ? `API_KEYS is not set: using the development API key just created in ${file} (printed this once): ${key}`
      : `API_KEYS is not set: using the development API key kept in ${file}`,
  );
  return [key];
}

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// Every module is loaded by now (the imports above), nothing read or started yet: CI runs --help on the image's files.
if (['--help', '-h'].includes(process.argv[2] ?? '')) {
  console.log(usage());
  process.exit(0);
}

bootstrap(readConfig()).catch((error: unknown) => {
  console.error(`The service failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
