import type { Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

/** One series: a count per bucket (the last for values above every bound) and the sum. */
interface Series {
  readonly labels: Labels;
  readonly counts: number[];
  sum: number;
  shownAtZero: boolean;
}

/**
 * A Prometheus histogram whose series are bound once and observed by one bucket increment; prom-client's registry writes it.
 * prom-client's own bound series validates and hashes its labels on every observation (docs/decisions/0004).
 */
export class BoundHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** By their labels: labels bound twice are one series, as Prometheus requires. */
  private readonly series = new Map<string, Series>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {
    // The registry reads a metric by get() and reset() alone, as for its own classes.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** Records a value in the series of these labels; the series is written once it holds one, or at once if `shownAtZero`. */
  bind(labels: Labels, shownAtZero = false): (value: number) => void {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    const series = this.series.get(key) ?? { labels, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, shownAtZero };
    series.shownAtZero ||= shownAtZero;
    this.series.set(key, series);
    const { buckets } = this;
    return (value) => {
      let bucket = 0;
      while (bucket < buckets.length && value > buckets[bucket]) bucket++;
      series.counts[bucket]++;
      series.sum += value;
    };
  }

  /** The metric as prom-client's histograms give it to the registry: cumulative buckets, then +Inf, the sum and the count. */
  get() {
    const values = [...this.series.values()].flatMap(({ labels, counts, sum, shownAtZero }) => {
      const count = counts.reduce((total, value) => total + value, 0);
      if (count === 0 && !shownAtZero) return [];
      let cumulative = 0;
      const bucket = (le: number | string, value: number) => ({ metricName: `${this.name}_bucket`, labels: { le, ...labels }, value });
      return [
        ...this.buckets.map((le, index) => bucket(le, (cumulative += counts[index]))),
        bucket('+Inf', count),
        { metricName: `${this.name}_sum`, labels, value: sum },
        { metricName: `${this.name}_count`, labels, value: count },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
    }
  }
}
