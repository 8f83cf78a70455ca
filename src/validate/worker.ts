/**
 * Validation on every core: a pool of worker threads, each with its own client (and so its
 * own copy of the catalog) judging whole ranges with the same code as the main thread. The
 * main thread cuts ranges and writes results in input order; workers only read, validate
 * and serialise, and hand back bytes (transferred, not copied).
 *
 * This module is also the workers' entry: a worker loads it again (by its own URL, so it is
 * found the same way from the compiled sources and from the command's bundle) and serves.
 */
import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createClient } from '../client/client.js';
import { validatorFor } from './address.js';
import { InputError } from './errors.js';
import { createJudge, type JudgePlan, type RangeOutcome } from './judge.js';
import type { SettlementIndexData } from '../parse/settlement-index.js';

interface WorkerSetup {
  cpmxValidateWorker: true;
  token: string;
  dataPath: string;
  plan: JudgePlan;
}

interface RangeRequest {
  id: number;
  bytes: Uint8Array;
  line: number;
}

/** The settlement index the main thread made, handed to each worker once (see `share`). */
interface IndexHandOver {
  settlementIndex: SettlementIndexData;
}

/**
 * Result bytes a worker made, handed back once written: moved out of the main thread at once,
 * instead of kept there until a full collection of its heap (they outlive its young
 * collections waiting their turn to be written, and a run's peak memory grew with its input).
 */
interface WrittenHandBack {
  written: true;
}

interface RangeReply {
  id: number;
  outcome?: RangeOutcome;
  /** An input the worker refused (exit 2), or a failure (a bug: its stack). */
  refused?: string;
  failed?: string;
}

/** The buffers of `bytes` that can be moved to another thread (those that own their memory). */
function movable(...bytes: (Uint8Array | undefined)[]): ArrayBuffer[] {
  return bytes.filter((b): b is Uint8Array => b !== undefined && b.byteLength > 0 && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength).map((b) => b.buffer as ArrayBuffer);
}

/**
 * The parent's Node options, less those that say what the main script is (`node
 * --input-type=module -e ...` would stop every worker from loading its own file).
 */
function workerArgv(): string[] {
  const argv: string[] = [];
  const parent = process.execArgv;
  for (let i = 0; i < parent.length; i++) {
    const option = parent[i]!;
    if (/^(-e|--eval|-p|--print)$/.test(option)) i++;
    else if (!/^(--input-type|--eval|--print)(=|$)/.test(option)) argv.push(option);
  }
  return argv;
}

/**
 * A worker of this module. A small young generation keeps its memory flat (it collects more
 * often, and almost everything it allocates dies with its range); its old generation may grow
 * as far as this thread's, so `node --max-old-space-size=N` reaches the workers too.
 */
function startWorker(data: WorkerSetup): Worker {
  const options = {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20) },
  };
  try {
    return new Worker(new URL(import.meta.url), { ...options, execArgv: workerArgv() });
  } catch (error) {
    // The parent was started with an option a worker may not take (a V8 or process-wide one,
    // `node --max-old-space-size=8192 cpmx validate ...`): the worker, which needs none of
    // them to load this module, starts with Node's defaults instead.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(new URL(import.meta.url), { ...options, execArgv: [] });
  }
}

interface Waiting {
  resolve: (outcome: RangeOutcome) => void;
  reject: (error: Error) => void;
  worker: number;
}

export class ValidationPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closing = false;

  constructor(count: number, setup: Omit<WorkerSetup, 'cpmxValidateWorker'>) {
    const data: WorkerSetup = { cpmxValidateWorker: true, ...setup };
    for (let i = 0; i < count; i++) {
      const worker = startWorker(data);
      worker.on('message', (reply: RangeReply) => this.settle(reply));
      worker.on('error', (error) => this.failAll(error));
      worker.on('exit', (code) => {
        if (!this.closing) this.failAll(new Error(`a validation worker stopped (exit ${code})`));
      });
      this.workers.push(worker);
      this.busy.push(0);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Ranges sent and not yet answered. */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * Hands every worker the settlement index this thread made (read by records whose code is
   * in doubt), so that no worker keys the catalog's settlements again: the one part of
   * judging that costs the same whatever the input's size, once per thread.
   */
  share(settlementIndex: SettlementIndexData): void {
    for (const worker of this.workers) worker.postMessage({ settlementIndex } satisfies IndexHandOver);
  }

  /** Judges a range in the least busy worker; `bytes` is moved there, not copied. */
  run(bytes: Uint8Array, line: number): Promise<RangeOutcome> {
    let chosen = 0;
    for (let i = 1; i < this.busy.length; i++) if (this.busy[i]! < this.busy[chosen]!) chosen = i;
    const id = this.nextId++;
    this.busy[chosen]!++;
    const request: RangeRequest = { id, bytes, line };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, worker: chosen });
      this.workers[chosen]!.postMessage(request, movable(bytes));
    });
  }

  /** Takes back result bytes a worker made, now written (see WrittenHandBack). */
  handBack(bytes: Uint8Array): void {
    const buffers = movable(bytes);
    if (this.closing || buffers.length === 0) return;
    this.workers[this.nextHandBack++ % this.workers.length]!.postMessage({ written: true } satisfies WrittenHandBack, buffers);
  }

  private nextHandBack = 0;

  private settle(reply: RangeReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    this.busy[waiting.worker]!--;
    if (reply.outcome) waiting.resolve(reply.outcome);
    else if (reply.refused !== undefined) waiting.reject(new InputError(reply.refused));
    else waiting.reject(new Error(`a validation worker failed: ${reply.failed}`));
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

async function serve(setup: WorkerSetup): Promise<void> {
  const port = parentPort!;
  const client = createClient({ token: setup.token, dataPath: setup.dataPath });
  const validator = validatorFor(client);
  const judge = await createJudge(validator, setup.plan);
  port.on('message', (request: RangeRequest | IndexHandOver | WrittenHandBack) => {
    // Written bytes come back only to be let go here, where young collections free them.
    if ('written' in request) return;
    if ('settlementIndex' in request) {
      validator.takeSettlementIndex(request.settlementIndex);
      return;
    }
    let reply: RangeReply;
    try {
      const outcome = judge.judge(request.bytes, request.line);
      port.postMessage({ id: request.id, outcome } satisfies RangeReply, movable(outcome.results, outcome.fixed));
      return;
    } catch (error) {
      reply = error instanceof InputError ? { id: request.id, refused: error.message } : { id: request.id, failed: (error as Error).stack ?? String(error) };
    }
    port.postMessage(reply);
  });
}

if (!isMainThread && (workerData as Partial<WorkerSetup> | null)?.cpmxValidateWorker === true) await serve(workerData as WorkerSetup);
