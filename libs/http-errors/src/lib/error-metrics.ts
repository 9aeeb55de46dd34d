import { Counter } from 'prom-client';

/** Error answers by their body's code: the codes are the code's own (the document's ErrorCode list), a bounded set. */
const errorAnswers = new Counter({
  name: 'petstore_http_errors_total',
  help: "Error answers sent, by the Error body's code",
  labelNames: ['code'] as const,
});

type ErrorAnswers = ReturnType<typeof errorAnswers.labels>;

const byCode = new Map<string, ErrorAnswers>();

function seriesOf(code: string): ErrorAnswers {
  let series = byCode.get(code);
  if (!series) {
    series = errorAnswers.labels(code);
    byCode.set(code, series);
  }
  return series;
}

/** Shows each code at zero from the start, so that a dashboard's rate has a series before the first error. */
export function showErrorCodes(codes: Iterable<string>): void {
  for (const code of codes) seriesOf(code).inc(0);
}

/** Counts one Error answer (error-response.ts, which every Error answer is made by). */
export function countErrorAnswer(code: string): void {
  seriesOf(code).inc();
}
