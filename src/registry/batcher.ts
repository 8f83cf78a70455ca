/**
 * Group commit: the visits that requests make to the registry, gathered while a batch is
 * under way and sent together as the next one (one transaction, one disk flush for many
 * credits). A lone request goes at once, so batching adds no wait when the server is quiet;
 * under load each commit carries every request that arrived during the previous one. Each
 * request's answer still waits for its own batch's commit.
 */
import type { Consumption } from '../core/credits.js';
import { RegistryUnavailableError } from './errors.js';
import { consumption, OUTCOME, VISIT, type VisitKind, type VisitResult } from './types.js';

export type BatchRunner = (tokens: string[], kinds: VisitKind[]) => Promise<VisitResult[]>;

export interface BatcherOptions {
  /** Batches under way at once (PostgreSQL: up to the pool's size; SQLite: one writer). */
  maxInFlight: number;
  /** Visits in one batch at most. */
  maxBatch?: number;
  /** Visits waiting at most; more answer 503 at once rather than queue without bound. */
  maxWaiting?: number;
}

interface Waiting {
  token: string;
  kind: VisitKind;
  resolve(result: VisitResult): void;
  reject(error: unknown): void;
}

export class Batcher {
  private queue: Waiting[] = [];
  private running = 0;
  private runningVisits = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly maxWaiting: number;

  constructor(
    private readonly runner: BatchRunner,
    private readonly options: BatcherOptions,
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxWaiting = options.maxWaiting ?? 20_000;
  }

  /** Visits waiting or under way: what /health and close look at. */
  get pending(): number {
    return this.runningVisits + this.queue.length;
  }

  visit(token: string, kind: VisitKind): Promise<VisitResult> {
    if (this.queue.length >= this.maxWaiting) {
      return Promise.reject(new RegistryUnavailableError(`${this.queue.length} requests already wait for the registry`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ token, kind, resolve, reject });
      this.schedule();
    });
  }

  /**
   * The next batch leaves at the end of this turn of the event loop: requests read in the
   * same turn (one read of a busy socket holds several) go together, and so do the refunds
   * of answers that the batch just finished could not write.
   */
  private schedule(): void {
    if (this.scheduled || this.running >= this.options.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.running < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
      this.running++;
      this.runningVisits += batch.length;
      let outcome: Promise<VisitResult[]>;
      try {
        outcome = this.runner(batch.map((w) => w.token), batch.map((w) => w.kind));
      } catch (error) {
        outcome = Promise.reject(error);
      }
      outcome
        .then(
          (results) => {
            for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
          },
          (error: unknown) => {
            for (const waiting of batch) waiting.reject(error);
          },
        )
        .finally(() => {
          this.running--;
          this.runningVisits -= batch.length;
          this.schedule();
          if (this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
        });
    }
  }

  /** Resolves once nothing is waiting or under way. */
  drain(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

/**
 * A token no registry can hold: cpmx makes tokens, and none has a NUL, which PostgreSQL's text
 * cannot carry (a batch with one would fail whole, and every request in it with it).
 */
const impossible = (token: string) => token.includes('\u0000');

/**
 * Waits before each further try of a refund the registry could not take (another process
 * held the lock past the timeout, the database was unreachable): about 16 s in all, plus
 * each try's own wait for the lock. Past the last, the credit is given up and logged.
 */
export const REFUND_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000, 8000];

/** The core's credit questions, and refunds, as visits through a batcher: what both served registries share. */
export abstract class BatchedRegistry {
  protected abstract readonly batcher: Batcher;
  /** Refunds waiting to be tried again: close() waits for them. */
  private readonly refunding = new Set<Promise<void>>();

  async credits(token: string): Promise<number | undefined> {
    if (impossible(token)) return undefined;
    const result = await this.batcher.visit(token, VISIT.look);
    return result.outcome === OUTCOME.looked ? result.left : undefined;
  }

  async consume(token: string): Promise<Consumption> {
    if (impossible(token)) return 'unknown';
    return consumption(await this.batcher.visit(token, VISIT.spend));
  }

  /** Gives back a credit; one the registry cannot take now is tried again (bounded, with backoff), never dropped at once. */
  refund(token: string): void {
    const attempt = (tried: number): Promise<void> =>
      this.batcher.visit(token, VISIT.refund).then(
        () => undefined,
        (error: unknown) => {
          const delay = REFUND_RETRY_DELAYS_MS[tried];
          if (error instanceof RegistryUnavailableError && delay !== undefined) return new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => attempt(tried + 1));
          process.stderr.write(
            `cpmx serve: process ${process.pid}: a credit of an answer never written could not be given back after ${tried + 1} tries (${(error as Error).message})\n`,
          );
          return undefined;
        },
      );
    const pending: Promise<void> = attempt(0).finally(() => this.refunding.delete(pending));
    this.refunding.add(pending);
  }

  /** Resolves once every refund has been given back or given up. */
  protected async refundsSettled(): Promise<void> {
    while (this.refunding.size > 0) await Promise.all(this.refunding);
  }
}
