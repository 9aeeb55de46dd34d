import 'reflect-metadata';
import type { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { developmentApiKey } from '@petstore/auth';
import { type AppConfig } from '@petstore/config';
import { preparePrivateDataDir } from '@petstore/data-dir';
import {
  AJV_OPTIONS,
  answerUnroutable,
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  corsHeadersOf,
  corsOptions,
  httpProtocol,
  NODE_SERVER_OPTIONS,
  requestIdFor,
  RouteMethods,
  trustProxyOption,
} from '@petstore/http';
import { ErrorAnswerCounter, errorCodesOf } from '@petstore/http-errors';
import { AccessLogController, type AppMetrics, createMetricsRegistry, Drain, observability, PinoNestLogger } from '@petstore/observability';
import type { DatabaseLocation } from '@petstore/persistence';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { maxHeaderSize, type ServerOptions } from 'node:http';
import { createApiDocument, serveApiDocs } from './api-docs';
import { API_PREFIX, AppModule, databaseLocationOf } from './app.module';
import { buildInfoOf } from './build-info';

type FastifyAdapterOptions = FastifyServerOptions & { readonly http: ServerOptions; readonly skipMiddie: boolean };

export interface CreateAppOptions {
  /** Where the data lives instead of the configured place: in-memory PGlite or a throw-away database in tests. */
  readonly database?: DatabaseLocation;
  /** Logs at this level as plain JSON, whatever the configuration says ('silent': no logs); tests and tools. */
  readonly logLevel?: AppConfig['logLevel'];
  /** Where the JSON log lines go instead of stdout (with logLevel): tests read them. */
  readonly logDestination?: { write(line: string): void };
  /** Stops before `init`, with the routes and the document: no database, data directory or socket (`npm run openapi`). */
  readonly documentOnly?: boolean;
  /** Modules added beside the service's own: a test's routes, built into the real application. */
  readonly imports?: NonNullable<ModuleMetadata['imports']>;
}

export interface PetstoreApp {
  /** Initialised and ready for `listen` or `inject`, unless documentOnly. Close it when done. */
  readonly app: NestFastifyApplication;
  /** The OpenAPI document the routes were built from: /docs, /openapi.json and the route schemas. */
  readonly document: OpenAPIObject;
  /** This application's metrics, and only its own: for /metrics on a port of its own (server.ts). */
  readonly metrics: AppMetrics;
  /** Started by server.ts on SIGTERM: out of readiness, connections closed after each answer. */
  readonly drain: Drain;
}

/** The one composition root (server, export-openapi, tests); only what needs the whole app: document, schemas, CORS, 405s. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<PetstoreApp> {
  const registry = createMetricsRegistry();
  const metrics = { registry, errorAnswers: new ErrorAnswerCounter(registry) };
  const adapter = new FastifyAdapter(fastifyOptions(config, options, metrics.errorAnswers));
  const fastify = adapter.getInstance();
  const requestTimeoutMs = config.httpTimeouts.requestMs;
  await fastify.register(observability, { registry, buildInfo: buildInfoOf(config), requestTimeoutMs });
  await fastify.register(httpProtocol, { errorAnswers: metrics.errorAnswers });
  const apiKeys = options.documentOnly ? [] : apiKeysOf(config, fastify.log);
  if (!options.documentOnly) warnWhenMetricsServedNowhere(config, fastify.log);
  const drain = new Drain();
  const root = AppModule.register(config, apiKeys, options.database ?? databaseLocationOf(config), metrics, drain);
  const app = await NestFactory.create<NestFastifyApplication>(
    { ...root, imports: [...(root.imports ?? []), ...(options.imports ?? [])] },
    adapter,
    { bodyParser: false, logger: new PinoNestLogger(fastify.log) },
  );
  app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'readyz', 'metrics'] });
  const document = createApiDocument(app);
  metrics.errorAnswers.showCodes(errorCodesOf(app));
  serveApiDocs(app, document);
  if (config.corsOrigins.length > 0) {
    const apiRouteMethods = app.get(RouteMethods);
    app.enableCors(corsOptions(config.corsOrigins, () => apiRouteMethods.served(), corsHeadersOf(document)));
  }
  if (options.documentOnly) return { app, document, metrics, drain };
  // Connects the database, migrates and registers the routes (and the 405s: RouteMethods).
  await app.init();
  return { app, document, metrics, drain };
}

function fastifyOptions(config: AppConfig, options: CreateAppOptions, errorAnswers: ErrorAnswerCounter): FastifyAdapterOptions {
  const logLevel = options.logLevel ?? config.logLevel;
  const pretty = options.logLevel === undefined && !config.production;
  // The line names the key that made the request: its public name (prefix, or env-N), never the secret.
  const accessLog = new AccessLogController(['info', 'debug', 'trace'].includes(logLevel), (request) => ({
    key: request.principal?.keyId,
  }));
  return {
    logger: {
      level: logLevel,
      redact: ['req.headers.authorization'],
      transport: pretty ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
      stream: options.logDestination,
    },
    logController: accessLog,
    // No Nest middleware here: without middie, one hook less on every request.
    skipMiddie: true,
    trustProxy: trustProxyOption(config.trustProxy),
    // Why: docs/operations.md, "Time limits for slow clients" (checked every second, not Node's default 30).
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler: clientErrorHandler(errorAnswers),
    http: { ...NODE_SERVER_OPTIONS, headersTimeout: config.httpTimeouts.headersMs, connectionsCheckingInterval: 1000 },
    frameworkErrors: answerUnroutable(accessLog, errorAnswers),
    // "/v1/pets/" is no pet with an empty id; a long parameter is the route schema's to refuse (headers bound the line).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    ajv: AJV_OPTIONS,
  };
}

/** The configured keys; in development without any, one kept in the data directory, printed only when created (logs are shipped). */
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

/** In production, /metrics is served only where the operator said who may scrape it (docs/operations.md, "Metrics"). */
function warnWhenMetricsServedNowhere(config: AppConfig, log: FastifyBaseLogger): void {
  if (config.metrics.onApiPort || config.metrics.port !== undefined) return;
  log.warn(
    '/metrics is served nowhere: in production it is served on a port of its own (METRICS_PORT) or, ' +
      'with a token the scraper sends (METRICS_TOKEN), on PORT',
  );
}
