/**
 * The SQLite registry as a server worker uses it: the connection lives in a thread of its own
 * (sqlite-worker.ts) and the worker's event loop only posts batches to it and reads the
 * results, so a locked, slow or vanished file delays paying requests (then answers them 503)
 * and nothing else. Measured: with the connection on the main thread, each credited answer
 * held the event loop for its whole commit (an fsync), and a lock held elsewhere froze it
 * for the busy timeout.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../package-root.js';
import { BatchedRegistry, Batcher } from './batcher.js';
import { RegistryError, RegistryUnavailableError } from './errors.js';
import { forwardPanel, type PanelMethod, type PanelStore } from './panel-types.js';
import { fileProblem, type OpenedFiles } from './sqlite-file.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './sqlite-worker.js';
import { RegistryState } from './state.js';
import { OUTCOME, VISIT, type InFlight, type Outcome, type RegistryHealth, type ServedRegistry, type VisitKind, type VisitResult } from './types.js';

export interface SqliteServedOptions {
  /** How long a batch waits for another process's write lock before its requests answer 503 (ms). */
  timeoutMs: number;
}

/** The thread's script: beside this module when compiled by tsc, else the bundle's entry. */
function threadScript(): URL {
  const beside = new URL('./sqlite-worker.js', import.meta.url);
  if (beside.protocol === 'file:' && existsSync(fileURLToPath(beside))) return beside;
  const bundled = join(packageRoot, 'dist', 'registry-thread.js');
  if (!existsSync(bundled)) throw new Error(`the registry thread's script is missing (${bundled}): run \`npm run compile\``);
  return pathToFileURL(bundled);
}

interface Sent {
  /** A batch of visits, not a panel call. */
  batch: boolean;
  resolve(results: VisitResult[] | unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

export class SqliteThreadRegistry extends BatchedRegistry implements ServedRegistry {
  private thread!: Worker;
  private readonly sent = new Map<number, Sent>();
  /** Batches given up on (the thread did not answer in time): spent credits are given back when they do. */
  private readonly abandoned = new Map<number, { batch: number; tokens: string[] }>();
  private nextId = 1;
  private identity: OpenedFiles | undefined;
  protected readonly batcher: Batcher;
  private readonly state: RegistryState;
  private closing = false;
  private markStarted!: () => void;
  /** Settles once the thread has tried to open the file (resolved whether or not it could). */
  readonly started: Promise<void> = new Promise((resolve) => (this.markStarted = resolve));
  /** The panel's part: its calls run in the registry's thread, after the batches before them. */
  readonly panel: PanelStore = forwardPanel((method, args) => this.call(method, args));

  constructor(
    readonly path: string,
    private readonly options: SqliteServedOptions,
  ) {
    super();
    this.state = new RegistryState('sqlite', path);
    // One writer at a time: SQLite serialises writers anyway, and a second batch would only
    // wait for the first one's lock.
    this.batcher = new Batcher((batch, tokens, kinds, refs) => this.run(batch, tokens, kinds, refs), { maxInFlight: 1 });
    this.startThread();
  }

  private startThread(): void {
    const thread = new Worker(threadScript(), { workerData: { path: this.path, busyTimeoutMs: this.options.timeoutMs, owner: this.owner } satisfies ThreadData });
    this.thread = thread;
    thread.on('message', (reply: ThreadReply) => this.receive(reply));
    thread.on('error', (error) => {
      this.markStarted();
      this.failAll(`the registry thread failed: ${error.message}`);
    });
    thread.on('exit', () => {
      this.markStarted();
      if (this.closing) return;
      this.failAll('the registry thread stopped');
      this.startThread();
    });
  }

  private failAll(problem: string): void {
    this.state.fail(problem);
    for (const [id, sent] of this.sent) {
      clearTimeout(sent.timer);
      sent.reject(new RegistryUnavailableError(problem));
      this.sent.delete(id);
    }
  }

  private receive(reply: ThreadReply): void {
    if (reply.type === 'started') {
      this.markStarted();
      return;
    }
    if (reply.type === 'opened') {
      this.identity = { dev: reply.dev, ino: reply.ino, journal: reply.journal };
      return;
    }
    const sent = this.sent.get(reply.id);
    if (!sent) {
      // Given up on earlier and answered 503: whatever that batch spent is given back.
      const given = this.abandoned.get(reply.id);
      this.abandoned.delete(reply.id);
      if (given && reply.type === 'done') {
        for (let i = 0; i < reply.outcomes.length; i++) if (reply.outcomes[i] === OUTCOME.spent) this.giveBack(given.tokens[i]!, { batch: given.batch, idx: i });
      }
      return;
    }
    this.sent.delete(reply.id);
    clearTimeout(sent.timer);
    if (reply.type === 'failed') {
      // A panel call the registry refuses (RegistryError: no such account) says nothing of its
      // state; a batch refused (the file is not a registry now) waits for it as for a lock.
      if (reply.failure === 'bug') sent.reject(new Error(reply.message));
      else if (reply.failure === 'refused' && !sent.batch) sent.reject(new RegistryError(reply.message));
      else {
        this.state.fail(reply.message);
        sent.reject(new RegistryUnavailableError(reply.message));
      }
      return;
    }
    this.state.recover();
    if (reply.type === 'result') sent.resolve(reply.value);
    else sent.resolve(reply.outcomes.map((outcome, i) => ({ outcome: outcome as Outcome, left: reply.lefts[i] })));
  }

  private run(batch: number, tokens: string[], kinds: VisitKind[], refs: (InFlight | undefined)[]): Promise<VisitResult[]> {
    return this.send({ type: 'visit', id: this.nextId++, batch, tokens, kinds, refs }, { batch, tokens }) as Promise<VisitResult[]>;
  }

  private call(method: PanelMethod, args: unknown[]): Promise<unknown> {
    return this.send({ type: 'call', id: this.nextId++, method, args }, undefined);
  }

  private send(request: ThreadRequest & { id: number }, batch: { batch: number; tokens: string[] } | undefined): Promise<unknown> {
    const id = request.id;
    return new Promise((resolve, reject) => {
      // The thread itself gives up after the busy timeout; this only guards against a thread
      // stuck in the disk, so that requests are not held forever.
      const timer = setTimeout(() => {
        this.sent.delete(id);
        if (batch) this.abandoned.set(id, batch);
        const problem = `no answer from the registry thread in ${this.options.timeoutMs + 5000} ms`;
        this.state.fail(problem);
        reject(new RegistryUnavailableError(problem));
      }, this.options.timeoutMs + 5000);
      this.sent.set(id, { batch: batch !== undefined, resolve, reject, timer });
      this.thread.postMessage(request);
    });
  }


  health(): RegistryHealth {
    // The file is looked at now (a few system calls), so a deleted or read-only registry is
    // reported at once, even with no paying request to notice it.
    const problem = fileProblem(this.path, this.identity);
    if (!problem && !this.state.ok && this.batcher.pending === 0) {
      // Try again in the background: the next /health says whether it is back.
      this.batcher.visit('', VISIT.look).catch(() => undefined);
    }
    return this.state.report(this.batcher.pending, problem?.message);
  }

  async close(): Promise<void> {
    const clean = await this.settleAll();
    this.closing = true;
    const exited = new Promise<void>((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.postMessage({ type: 'close', forget: clean } satisfies ThreadRequest);
    await exited;
  }
}
