import { Logger } from '@nestjs/common';
import { IdempotencyRecordRepository } from '@petstore/domain';
import { IdempotencyRecordSweeper, SWEEP_BATCH_SIZE, SWEEP_MAX_BATCHES } from './idempotency-record.sweeper';

/** A repository whose expired records come out in batches of the sizes given, then none. */
class SweptRepository extends IdempotencyRecordRepository {
  readonly limits: number[] = [];

  constructor(private readonly batches: Array<number | Error>) {
    super();
  }

  async deleteExpiredIdempotencyRecords(limit: number): Promise<number> {
    this.limits.push(limit);
    const next = this.batches.shift() ?? 0;
    if (next instanceof Error) throw next;
    return next;
  }
}

describe('IdempotencyRecordSweeper', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('deletes in batches until one comes back short', async () => {
    const repository = new SweptRepository([SWEEP_BATCH_SIZE, SWEEP_BATCH_SIZE, 3, SWEEP_BATCH_SIZE]);
    const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds: 86400 });

    await expect(sweeper.sweepUnlessSweeping()).resolves.toBe(2 * SWEEP_BATCH_SIZE + 3);
    expect(repository.limits).toEqual([SWEEP_BATCH_SIZE, SWEEP_BATCH_SIZE, SWEEP_BATCH_SIZE]);
  });

  it('stops a sweep after its share of batches, leaving the rest to the next', async () => {
    const repository = new SweptRepository(Array.from({ length: SWEEP_MAX_BATCHES + 5 }, () => SWEEP_BATCH_SIZE));
    const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds: 86400 });

    await expect(sweeper.sweepUnlessSweeping()).resolves.toBe(SWEEP_MAX_BATCHES * SWEEP_BATCH_SIZE);
    expect(repository.limits).toHaveLength(SWEEP_MAX_BATCHES);
  });

  it('logs a failure instead of throwing, keeping what it deleted before', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sweeper = new IdempotencyRecordSweeper(new SweptRepository([SWEEP_BATCH_SIZE, new Error('database down')]), {
      lifetimeSeconds: 86400,
    });

    await expect(sweeper.sweepUnlessSweeping()).resolves.toBe(SWEEP_BATCH_SIZE);
    expect(warn).toHaveBeenCalledWith('Could not delete expired idempotency records: database down');
  });

  it('runs one sweep at a time', async () => {
    const repository = new SweptRepository([5]);
    const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds: 86400 });

    const [first, second] = [sweeper.sweepUnlessSweeping(), sweeper.sweepUnlessSweeping()];
    expect(second).toBe(first);
    await first;
    expect(repository.limits).toHaveLength(1);
  });

  it.each([
    [86400, 60_000],
    [60, 60_000],
    [2, 2_000],
  ])(
    'with a lifetime of %i s, sweeps every %i ms once the application is up, and stops on shutdown',
    async (lifetimeSeconds, intervalMs) => {
      jest.useFakeTimers();
      const repository = new SweptRepository([]);
      const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds });

      sweeper.onApplicationBootstrap();
      await jest.advanceTimersByTimeAsync(intervalMs - 1);
      expect(repository.limits).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(repository.limits).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(intervalMs);
      expect(repository.limits).toHaveLength(2);

      await sweeper.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(10 * intervalMs);
      expect(repository.limits).toHaveLength(2);
    },
  );

  it('waits on shutdown for a sweep under way', async () => {
    let finish!: (count: number) => void;
    const repository = new SweptRepository([]);
    repository.deleteExpiredIdempotencyRecords = () => new Promise<number>((resolve) => (finish = resolve));
    const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds: 86400 });

    const sweep = sweeper.sweepUnlessSweeping();
    let stopped = false;
    const stopping = sweeper.onModuleDestroy().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    finish(0);
    await Promise.all([sweep, stopping]);
    expect(stopped).toBe(true);
  });

  it('does not sweep when the application is only built, never started', async () => {
    jest.useFakeTimers();
    const repository = new SweptRepository([]);
    const sweeper = new IdempotencyRecordSweeper(repository, { lifetimeSeconds: 1 });
    await jest.advanceTimersByTimeAsync(120_000);
    await sweeper.onModuleDestroy();
    expect(repository.limits).toEqual([]);
  });
});
