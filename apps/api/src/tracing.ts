// Traces when OTEL_* is set (docs/operations.md, "Traces"); started before the modules whose `require` it hooks.
import { startTracing } from '@petstore/observability/tracing';

startTracing(process.env);
