import { Histogram, Registry } from 'prom-client';
import { BoundHistogram } from './bound-histogram';

const NAME = 'request_duration_seconds';
const BUCKETS = [0.001, 0.01, 0.1, 1];
const VALUES = [0.0005, 0.001, 0.002, 0.05, 0.1, 0.7, 3];

/** The /metrics text of prom-client's own histogram with these observations, per series. */
async function promClientText(observations: ReadonlyArray<readonly [Record<string, string>, number]>): Promise<string> {
  const registry = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: 'h',
    labelNames: ['route', 'status_class'],
    buckets: BUCKETS,
    registers: [registry],
  });
  for (const [labels, value] of observations) histogram.observe(labels, value);
  return registry.metrics();
}

describe('BoundHistogram', () => {
  it("is written in /metrics exactly as prom-client's Histogram with the same observations", async () => {
    const registry = new Registry();
    const histogram = new BoundHistogram(registry, NAME, 'h', BUCKETS);
    const ok = histogram.bind({ route: '/v1/pets', status_class: '2xx' });
    const refused = histogram.bind({ route: '/v1/pets', status_class: '4xx' });
    VALUES.forEach((value) => ok(value));
    refused(0.02);

    const expected = await promClientText([
      ...VALUES.map((value) => [{ route: '/v1/pets', status_class: '2xx' }, value] as const),
      [{ route: '/v1/pets', status_class: '4xx' }, 0.02] as const,
    ]);
    expect(await registry.metrics()).toBe(expected);
  });

  it('writes a series only once it holds a value, unless it is shown at zero', async () => {
    const registry = new Registry();
    const histogram = new BoundHistogram(registry, NAME, 'h', BUCKETS);
    histogram.bind({ route: '/never' });
    histogram.bind({ route: '/declared' }, true);

    const text = await registry.metrics();
    expect(text).not.toContain('/never');
    expect(text).toContain(`${NAME}_count{route="/declared"} 0`);
  });

  it("writes labels bound twice (in any order) as one series, holding both observers' values", async () => {
    const registry = new Registry();
    const histogram = new BoundHistogram(registry, NAME, 'h', BUCKETS);
    histogram.bind({ route: '/v1/pets', method: 'GET' })(0.5);
    histogram.bind({ method: 'GET', route: '/v1/pets' }, true)(0.05);

    expect((await registry.metrics()).match(new RegExp(`${NAME}_count`, 'g'))).toHaveLength(1);
    expect(await registry.metrics()).toContain(`${NAME}_count{route="/v1/pets",method="GET"} 2`);
  });

  it('starts again from zero when the registry is reset', async () => {
    const registry = new Registry();
    const observe = new BoundHistogram(registry, NAME, 'h', BUCKETS).bind({ route: '/v1/pets' }, true);
    observe(0.5);
    registry.resetMetrics();

    expect(await registry.metrics()).toContain(`${NAME}_count{route="/v1/pets"} 0`);
  });
});
