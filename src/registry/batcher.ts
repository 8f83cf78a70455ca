/**
 * Group commit: the visits that requests make to the registry, gathered while a batch is
 * under way and sent together as the next one (one transaction, one disk flush for many
 * credits). A lone request goes at once, so batching adds no wait when the server is quiet;
 * under load each commit carries every request that arrived during the previous one. Each
 * request's answer still waits for its own batch's commit.
 */
import { randomUUID } from 'node:crypto';
import type { Consumption } from '../core/credits.js';
import { RegistryUnavailableError } from './errors.js';
import { worthRetrying } from './failure.js';
import { consumption, OUTCOME, VISIT, type InFlight, type VisitKind, type VisitResult } from './types.js';

/**
 * Runs one batch in one transaction. `batch` numbers it within this process (the journal's
 * key for the credits it spends, with the registry's owner id); `refs` name the credit in
 * flight that each refund and settle is about.
 */
export type BatchRunner = (batch: number, tokens: string[], kinds: VisitKind[], refs: (InFlight | undefined)[]) => Promise<VisitResult[]>;

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
  ref: InFlight | undefined;
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
  /** Batches run so far: the next one's number. */
  private batches = 0;

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

  visit(token: string, kind: VisitKind, ref?: InFlight): Promise<VisitResult> {
    if (this.queue.length >= this.maxWaiting) {
      return Promise.reject(new RegistryUnavailableError(`${this.queue.length} requests already wait for the registry`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ token, kind, ref, resolve, reject });
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
      const number = ++this.batches;
      let outcome: Promise<VisitResult[]>;
      try {
        outcome = this.runner(
          number,
          batch.map((w) => w.token),
          batch.map((w) => w.kind),
          batch.map((w) => w.ref),
        );
      } catch (error) {
        outcome = Promise.reject(error);
      }
      outcome
        .then(
          (results) => {
            for (let i = 0; i < batch.length; i++) {
              const result = results[i]!;
              if (result.outcome === OUTCOME.spent) result.inFlight = { batch: number, idx: i };
              batch[i]!.resolve(result);
            }
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

/**
 * A test hook, read from the environment when a registry opens: each answer whose credit was
 * just spent is held (never written) after a line on stderr, so that a test can kill the
 * process at that moment, deterministically (test/registry/registry-inflight.test.ts).
 */
export const HOLD_AFTER_DEBIT_ENV = 'CPMX_TEST_HOLD_AFTER_DEBIT';

/**
 * The core's credit questions, refunds and settles as visits through a batcher: what both
 * served registries share. Each credit spent is in flight (types.ts, InFlight) until the
 * transport says its answer was written (delivered) or not (refund); which of a token's
 * credits in flight a refund or settle names does not matter, so they are kept per token.
 */
export abstract class BatchedRegistry {
  protected abstract readonly batcher: Batcher;
  /** This process's name in the registry's journal of credits in flight. */
  readonly owner: string = randomUUID();
  /** Refunds under way or waiting to be tried again: close() waits for them. */
  private readonly refunding = new Set<Promise<void>>();
  /** Per token, its credits in flight: spent, their answers not yet known written or not. */
  private readonly inFlight = new Map<string, InFlight[]>();
  private readonly holdAfterDebit = process.env[HOLD_AFTER_DEBIT_ENV] === '1';

  async credits(token: string): Promise<number | undefined> {
    if (impossible(token)) return undefined;
    const result = await this.batcher.visit(token, VISIT.look);
    return result.outcome === OUTCOME.looked ? result.left : undefined;
  }

  async consume(token: string): Promise<Consumption> {
    if (impossible(token)) return 'unknown';
    const result = await this.batcher.visit(token, VISIT.spend);
    if (result.inFlight) {
      const kept = this.inFlight.get(token);
      if (kept) kept.push(result.inFlight);
      else this.inFlight.set(token, [result.inFlight]);
      if (this.holdAfterDebit) {
        process.stderr.write(`cpmx serve: process ${process.pid}: test hook: an answer held after its debit\n`);
        return new Promise<never>(() => undefined);
      }
    }
    return consumption(result);
  }

  /** One credit in flight of `token`, taken out of the map. */
  private take(token: string): InFlight | undefined {
    const kept = this.inFlight.get(token);
    const ref = kept?.pop();
    if (kept?.length === 0) this.inFlight.delete(token);
    return ref;
  }

  /**
   * The answer of a credit spent was written: the credit is kept for good (its journal row
   * goes). Sent at once, as a refund is: under load it rides in the next batch with the
   * requests; a quiet server commits it alone (without waiting for the disk: a settle lost
   * only gives an answer away). Until it commits, a crash gives that answer away.
   */
  delivered(token: string): void {
    const ref = this.take(token);
    if (ref) this.retried(token, VISIT.settle, ref);
  }

  /** Gives back a credit spent for an answer never written. */
  refund(token: string): void {
    const ref = this.take(token);
    if (ref) this.giveBack(token, ref);
  }

  /** Gives back the credit in flight `ref`, trying again while the registry cannot take it. */
  protected giveBack(token: string, ref: InFlight): void {
    this.retried(token, VISIT.refund, ref);
  }

  /**
   * A refund or settle, tried again (bounded, with backoff) while the registry cannot take it.
   * Each try names the same row of the journal: one that committed unseen is not done twice.
   * A settle given up leaves its row (the credit stays spent unless this process dies first).
   */
  private retried(token: string, kind: typeof VISIT.refund | typeof VISIT.settle, ref: InFlight): void {
    const settle = kind === VISIT.settle;
    const attempt = (tried: number): Promise<void> =>
      this.batcher.visit(token, kind, ref).then(
        () => undefined,
        (error: unknown) => {
          const delay = REFUND_RETRY_DELAYS_MS[tried];
          // Closing, a settle is not waited for: its row is forgotten with the credit kept (settleAll).
          if (settle && this.closingDown) return undefined;
          if (worthRetrying(error) && delay !== undefined) return new Promise<void>((resolve) => setTimeout(resolve, delay).unref()).then(() => (settle && this.closingDown ? undefined : attempt(tried + 1)));
          if (settle) return undefined;
          this.givenUp = true;
          process.stderr.write(
            `cpmx serve: process ${process.pid}: a credit of an answer never written could not be given back after ${tried + 1} tries (${(error as Error).message}); it is given back once this process has ended\n`,
          );
          return undefined;
        },
      );
    const pending: Promise<void> = attempt(0).finally(() => this.refunding.delete(pending));
    if (!settle) this.refunding.add(pending);
  }

  /** Set by settleAll: settles still being tried stop. */
  private closingDown = false;

  /** A refund was given up: its row must stay for a sweep to give it back once this process has ended. */
  private givenUp = false;

  /**
   * Before closing: the credits whose answers' fate is unknown (still being written) are given
   * back, and every refund is done or given up (settles still being tried are not waited for).
   * Resolves
   * true when what is left of this process's rows in the journal is only answers written
   * (settles that failed): they may then be forgotten, the credits kept. False when a refund
   * was given up: the rows stay, and a server that sweeps after this process has ended gives
   * them all back.
   */
  protected async settleAll(): Promise<boolean> {
    this.closingDown = true;
    for (const [token, refs] of this.inFlight) for (const ref of refs) this.giveBack(token, ref);
    this.inFlight.clear();
    while (this.refunding.size > 0) await Promise.all(this.refunding);
    await this.batcher.drain();
    return !this.givenUp;
  }
}
