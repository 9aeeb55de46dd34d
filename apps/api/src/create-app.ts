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
  assertEveryBodyValidated,
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  corsHeadersOf,
  corsOptions,
  JsonBodyValidationPipe,
  NODE_SERVER_OPTIONS,
  registerExactJsonSerializer,
  registerJsonBodyParser,
  registerConditionalGets,
  registerProtocolGuards,
  registerResponseHeaders,
  registerRouteSchemas,
  registerSecurityHeaders,
  requestIdFor,
  RouteMethods,
  trustProxyOption,
} from '@petstore/http';
import { ErrorAnswerCounter, ErrorBodyFilter, errorCodesOf } from '@petstore/http-errors';
import {
  AccessLogController,
  type AppMetrics,
  createMetricsRegistry,
  PinoNestLogger,
  registerBuildInfo,
  registerRequestMetrics,
  traceRoutes,
} from '@petstore/observability';
import type { DatabaseLocation } from '@petstore/persistence';
import type { FastifyBaseLogger } from 'fastify';
import { maxHeaderSize } from 'node:http';
import { createApiDocument, DOCS_PATH, serveApiDocs } from './api-docs';
import { API_PREFIX, AppModule, databaseLocationOf } from './app.module';
import { buildInfoOf } from './build-info';

export interface CreateAppOptions {
  /** Where the data lives instead of the configured place: in-memory PGlite or a throw-away database in tests. */
  readonly database?: DatabaseLocation;
  /** Logs at this level as plain JSON, whatever the configuration says ('silent': no logs); tests and tools. */
  readonly logLevel?: AppConfig['logLevel'];
  /** Where the JSON log lines go instead of stdout (with logLevel): tests read them. */
  readonly logDestination?: { write(line: string): void };
  /**
   * Builds the routes and the document, and stops before `init`: nothing connects to a database,
   * opens the data directory or a socket. What `npm run openapi` and the document's tests need.
   */
  readonly documentOnly?: boolean;
  /** Modules added beside the service's own: a test's routes, built into the real application. */
  readonly imports?: NonNullable<ModuleMetadata['imports']>;
}

export interface PetstoreApp {
  /** Initialised and ready for `listen` or `inject`, unless documentOnly. Close it when done. */
  readonly app: NestFastifyApplication;
  /** The OpenAPI document the routes were built from: /docs, /openapi.json and the route schemas. */
  readonly document: OpenAPIObject;
  /** This application's metrics, and only its own: for /metrics on a port of its own (main.ts). */
  readonly metrics: AppMetrics;
}

/**
 * The composition root of the HTTP application: every part of it is registered here, in this
 * order, and nothing else builds one (main.ts listens on it, export-openapi reads its document,
 * the in-process tests inject into it). The steps, and why each comes where it does:
 *  1. The application's metrics registry, which all its metrics are defined on (never prom-client's
 *     global one: each call builds an application of its own). Fastify's options: time limits, body
 *     limit, request ids, the logger. Fixed once the instance exists.
 *  2. Fastify hooks and parsers: the trace's route, while tracing is on (first, so that a refused
 *     request's span is named too); security headers (so that every answer carries them, a
 *     guard's refusal included), Host guard, JSON parser, exact serializer, headers, conditional GETs, metrics.
 *     Hooks apply to the routes registered after them, so before Nest's.
 *  3. The route table's listener (RouteMethods): it learns each route's methods as Nest registers it.
 *  4. The Nest application: the modules, with the ports bound to their adapters and the registry provided.
 *  5. Prefix, the error filter, the validation pipe: read by Nest when it registers the routes (init).
 *  6. The document, then each route's schemas from it, the docs pages, and CORS, whose headers are the
 *     document's: before init, which registers the routes.
 *  7. The bodies' check: every `@Body()` is a class the pipe validates, or the start fails.
 *  8. init: connects the database, migrates, registers the routes.
 *  9. 405 for the other methods of known paths: the route table is complete only after init.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<PetstoreApp> {
  // 1.
  const registry = createMetricsRegistry();
  const errorAnswers = new ErrorAnswerCounter(registry);
  const logLevel = options.logLevel ?? config.logLevel;
  const pretty = options.logLevel === undefined && !config.production;
  // The line names the key that made the request: its public name (prefix, or env-N), never the secret.
  const accessLog = new AccessLogController(['info', 'debug', 'trace'].includes(logLevel), (request) => ({
    key: request.principal?.keyId,
  }));
  const adapter = new FastifyAdapter({
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
    // Slow or stalled clients hold a connection for a bounded time (docs/operations.md, "Time limits"); Node
    // checks the header and request limits every second instead of its default 30.
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler: clientErrorHandler(errorAnswers),
    http: { ...NODE_SERVER_OPTIONS, headersTimeout: config.httpTimeouts.headersMs, connectionsCheckingInterval: 1000 },
    frameworkErrors: answerUnroutable(accessLog, errorAnswers),
    // "/v1/pets/" is "/v1/pets", not a pet with an empty id. No parameter is too long for the router
    // (the request line is bounded by the header size): the route's own schema says what is wrong.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    ajv: AJV_OPTIONS,
  });
  const fastify = adapter.getInstance();
  // 2.
  traceRoutes(fastify);
  await registerSecurityHeaders(fastify, `/${DOCS_PATH}`);
  registerProtocolGuards(fastify, errorAnswers);
  registerJsonBodyParser(fastify);
  registerExactJsonSerializer(fastify);
  registerResponseHeaders(fastify);
  registerConditionalGets(fastify);
  registerRequestMetrics(fastify, registry, { requestTimeoutMs: config.httpTimeouts.requestMs });
  registerBuildInfo(registry, buildInfoOf(config));
  // 3.
  const apiRouteMethods = new RouteMethods(fastify, `/${API_PREFIX}/`);
  // 4.
  const apiKeys = options.documentOnly ? [] : apiKeysOf(config, fastify.log);
  if (!options.documentOnly) warnWhenMetricsServedNowhere(config, fastify.log);
  const root = AppModule.register(config, apiKeys, options.database ?? databaseLocationOf(config), registry);
  const app = await NestFactory.create<NestFastifyApplication>(
    { ...root, imports: [...(root.imports ?? []), ...(options.imports ?? [])] },
    adapter,
    { bodyParser: false, logger: new PinoNestLogger(fastify.log) },
  );
  // 5.
  app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'readyz', 'metrics'] });
  app.useGlobalFilters(new ErrorBodyFilter(errorAnswers));
  app.useGlobalPipes(new JsonBodyValidationPipe());
  // 6.
  const document = createApiDocument(app);
  errorAnswers.showCodes(errorCodesOf(app));
  registerRouteSchemas(fastify, document);
  serveApiDocs(app, document);
  if (config.corsOrigins.length > 0) {
    app.enableCors(corsOptions(config.corsOrigins, () => apiRouteMethods.served(), corsHeadersOf(document)));
  }
  // 7.
  assertEveryBodyValidated(app);
  const metrics = { registry, errorAnswers };
  if (options.documentOnly) return { app, document, metrics };
  // 8.
  await app.init();
  // 9.
  apiRouteMethods.answerOtherMethodsWith405();
  return { app, document, metrics };
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

/** In production, /metrics is served only where the operator said who may scrape it (docs/operations.md, "Metrics"). */
function warnWhenMetricsServedNowhere(config: AppConfig, log: FastifyBaseLogger): void {
  if (config.metrics.onApiPort || config.metrics.port !== undefined) return;
  log.warn(
    '/metrics is served nowhere: in production it is served on a port of its own (METRICS_PORT) or, ' +
      'with a token the scraper sends (METRICS_TOKEN), on PORT',
  );
}
