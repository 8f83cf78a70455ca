/** `/health` of a `cpmx serve` with several workers: each asked on a new connection, which the kernel hands to any worker. */
import { waitFor } from './serve.js';

export interface WorkerHealth {
  pid: number;
  buildId: string | null;
  catalogDate: string | null;
  catalogAgeDays: number | null;
  builtAt: string | null;
  loadedAt: string | null;
  header: { source: { sha256: string } } | null;
  lastReload: { trigger: string; result: string; reason: string | null; buildId: string | null } | null;
  corrections: { applied: number; dropped: number } | null;
  lastRefresh: {
    at: string;
    result: string;
    reason: string | null;
    codes: number | null;
    lost: number | null;
    droppedCorrections: Array<{ line: number; action: string; cp: string; reason: string; droppedAt: string | null }> | null;
    nextAt: string | null;
  } | null;
}

export async function healthOf(url: string): Promise<WorkerHealth> {
  const response = await fetch(`${url}/health`, { headers: { connection: 'close' } });
  return (await response.json()) as WorkerHealth;
}

/** Resolves once `workers` distinct workers' /health satisfy `condition`, with the last one seen of each. */
export async function everyWorker(url: string, workers: number, condition: (health: WorkerHealth) => boolean, what: string): Promise<WorkerHealth[]> {
  const seen = new Map<number, WorkerHealth>();
  await waitFor(
    async () => {
      const now = await healthOf(url);
      if (condition(now)) seen.set(now.pid, now);
      return seen.size >= workers;
    },
    `${workers} worker(s): ${what}`,
  );
  return [...seen.values()];
}
