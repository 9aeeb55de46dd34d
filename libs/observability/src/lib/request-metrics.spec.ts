import { durationBuckets } from './request-metrics';

describe('durationBuckets', () => {
  it('takes 1, 2.5 and 5 of each decade from 1 ms, up to the time-out, the last', () => {
    expect(durationBuckets(15)).toEqual([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15]);
  });

  it.each([1, 2.5, 2.7, 600])('rises strictly to a time-out of %p s', (top) => {
    const buckets = durationBuckets(top);
    expect(buckets.at(-1)).toBe(top);
    expect(buckets.every((bound, index) => index === 0 || bound > buckets[index - 1])).toBe(true);
  });
});
