import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IdempotencyRecordRepository } from '@petstore/domain';
import { IDEMPOTENCY_OPTIONS, type IdempotencyOptions } from './idempotency.options';

/** Records deleted per statement: a short transaction, a bounded number of row locks. */
export const SWEEP_BATCH_SIZE = 1000;
/** Batches per sweep at most, so that one sweep's work is bounded; what is left waits for the next sweep. */
export const SWEEP_MAX_BATCHES = 100;
/** A minute between sweeps, or a lifetime when that is shorter: expired records linger for at most that long. */
const SWEEP_INTERVAL_MS = 60_000;

/** Deletes expired idempotency records in the background, never on a request's path; batches skip rows another sweep holds. */
@Injectable()
export class IdempotencyRecordSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyRecordSweeper.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    private readonly records: IdempotencyRecordRepository,
    @Inject(IDEMPOTENCY_OPTIONS) private readonly options: IdempotencyOptions,
  ) {}

  /** Starts sweeping once the application is up (not when it is only built, as for the OpenAPI export). */
  onApplicationBootstrap(): void {
    const intervalMs = Math.min(SWEEP_INTERVAL_MS, this.options.lifetimeSeconds * 1000);
    this.timer = setInterval(() => void this.sweepUnlessSweeping(), intervalMs).unref();
  }

  /** Stops sweeping and waits for a sweep under way, before the database closes. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** One sweep, unless the previous one is still running (a slow database): sweeps never pile up. */
  sweepUnlessSweeping(): Promise<number> {
    this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Deletes a batch at a time until one comes back short or SWEEP_MAX_BATCHES; returns how many. */
  private async sweep(): Promise<number> {
    let deleted = 0;
    try {
      for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
        const count = await this.records.deleteExpiredIdempotencyRecords(SWEEP_BATCH_SIZE);
        deleted += count;
        if (count < SWEEP_BATCH_SIZE) break;
      }
    } catch (error) {
      // The database may be down: the records wait for the next sweep, which is harmless.
      this.logger.warn(`Could not delete expired idempotency records: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (deleted > 0) this.logger.debug(`Deleted ${deleted} expired idempotency records`);
    return deleted;
  }
}
