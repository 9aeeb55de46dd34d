// Third: OpenTelemetry traces when an OTEL_* variable is set (docs/operations.md, "Traces"). The
// instrumentations hook `require`, so the SDK starts before node:http, pg, ioredis and pino load.
import { startTracing } from '@petstore/observability/tracing';

startTracing(process.env);
