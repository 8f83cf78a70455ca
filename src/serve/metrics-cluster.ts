/**
 * The whole server's metrics under `--workers N`: any worker asked for /metrics asks the
 * primary, which collects every worker's snapshot over IPC (node:cluster's channel) and sums
 * them. A worker that dies leaves its last collected counters to the total (the primary keeps
 * them), so counters never go back; what it counted since the last collection is lost with it.
 */
import cluster from 'node:cluster';
import { addCounters, emptyCounters, mergeSnapshots, type MetricsSnapshot, type ServerMetrics } from './metrics.js';

type MetricsMessage =
  | { cpmx: 'metrics-ask'; id: number }
  | { cpmx: 'metrics-collect'; round: number }
  | { cpmx: 'metrics-part'; round: number; snapshot: MetricsSnapshot }
  | { cpmx: 'metrics-total'; id: number; snapshot: MetricsSnapshot };

/** How long the primary waits for a worker's part (a busy worker's last part is used instead), and a worker for the total. */
const PART_TIMEOUT_MS = 1000;
const TOTAL_TIMEOUT_MS = 5000;

function isMetricsMessage(message: unknown): message is MetricsMessage {
  return typeof (message as { cpmx?: unknown } | null)?.cpmx === 'string' && (message as { cpmx: string }).cpmx.startsWith('metrics-');
}

/** In the primary: answers the workers' asks with every worker's numbers summed. */
export function gatherWorkerMetrics(): void {
  /** Each live worker's latest part; a dead one's counters go to `retired`. */
  const latest = new Map<number, MetricsSnapshot>();
  const retired = emptyCounters();
  const rounds = new Map<number, { waiting: Set<number>; done: () => void }>();
  let nextRound = 1;
  /** Workers that listen: one still starting has no ear for a collection yet (its round would wait for nothing). */
  const listening = new Set<number>();
  cluster.on('listening', (worker) => listening.add(worker.id));

  const collect = (): Promise<MetricsSnapshot> =>
    new Promise((resolve) => {
      const round = nextRound++;
      const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected() && listening.has(worker.id));
      const waiting = new Set(workers.map((worker) => worker!.id));
      const done = () => {
        if (!rounds.delete(round)) return;
        clearTimeout(timer);
        resolve(mergeSnapshots([...latest.values()], retired));
      };
      const timer = setTimeout(done, PART_TIMEOUT_MS);
      rounds.set(round, { waiting, done });
      for (const worker of workers) worker!.send({ cpmx: 'metrics-collect', round } satisfies MetricsMessage);
      if (waiting.size === 0) done();
    });

  cluster.on('message', (worker, message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.cpmx === 'metrics-part') {
      latest.set(worker.id, message.snapshot);
      const round = rounds.get(message.round);
      round?.waiting.delete(worker.id);
      if (round?.waiting.size === 0) round.done();
    } else if (message.cpmx === 'metrics-ask') {
      void collect().then((snapshot) => {
        if (worker.isConnected()) worker.send({ cpmx: 'metrics-total', id: message.id, snapshot } satisfies MetricsMessage);
      });
    }
  });
  cluster.on('exit', (worker) => {
    listening.delete(worker.id);
    const last = latest.get(worker.id);
    if (last) addCounters(retired, last.counters);
    latest.delete(worker.id);
    for (const round of rounds.values()) {
      round.waiting.delete(worker.id);
      if (round.waiting.size === 0) round.done();
    }
  });
}

/** In a worker: answers the primary's collections, and returns how to ask it for the whole server's numbers. */
export function workerMetrics(metrics: ServerMetrics): () => Promise<MetricsSnapshot> {
  const pending = new Map<number, (snapshot: MetricsSnapshot | undefined) => void>();
  let nextId = 1;
  process.on('message', (message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.cpmx === 'metrics-collect') process.send?.({ cpmx: 'metrics-part', round: message.round, snapshot: metrics.snapshot() } satisfies MetricsMessage);
    else if (message.cpmx === 'metrics-total') pending.get(message.id)?.(message.snapshot);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => settle(undefined), TOTAL_TIMEOUT_MS);
      const settle = (snapshot: MetricsSnapshot | undefined) => {
        pending.delete(id);
        clearTimeout(timer);
        if (snapshot) resolve(snapshot);
        else reject(new Error('the primary process did not send the workers’ metrics in time'));
      };
      pending.set(id, settle);
      process.send?.({ cpmx: 'metrics-ask', id } satisfies MetricsMessage);
    });
}
