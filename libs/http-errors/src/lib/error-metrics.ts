import { Counter, type Registry } from 'prom-client';

/** Error answers by code (the document's ErrorCode list, a bounded set) on one app's registry; whatever sends one counts it. */
export class ErrorAnswerCounter {
  private readonly answers: Counter<'code'>;
  private readonly byCode = new Map<string, Counter.Internal>();

  constructor(registry: Registry) {
    this.answers = new Counter({
      name: 'petstore_http_errors_total',
      help: "Error answers sent, by the Error body's code",
      labelNames: ['code'] as const,
      registers: [registry],
    });
  }

  /** Shows each code at zero from the start, so that a dashboard's rate has a series before the first error. */
  showCodes(codes: Iterable<string>): void {
    for (const code of codes) this.seriesOf(code).inc(0);
  }

  /** Counts one Error answer sent. */
  count(code: string): void {
    this.seriesOf(code).inc();
  }

  private seriesOf(code: string): Counter.Internal {
    let series = this.byCode.get(code);
    if (!series) {
      series = this.answers.labels(code);
      this.byCode.set(code, series);
    }
    return series;
  }
}
