/**
 * The plain static server (static-server.ts) in a thread of its own, for the pages a browser
 * loads in the benchmark. A real host is not the browser driver's process: in the driver's
 * event loop, where playwright-core handles Chromium's protocol messages (several for each
 * request, exactly while a page loads), every response also waited for those, and a cold page
 * measured about a quarter slower on a shared 2-core machine (web 85 ms against 66 ms, the
 * empty page the same, in interleaved runs).
 */
import type { AddressInfo } from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { staticServer } from './static-server.js';

/** Serves `mounts` (as `staticServer`) from a worker thread; resolves once it listens on loopback. */
export async function staticServerThread(mounts: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { mounts } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, close: async () => void (await worker.terminate()) };
}

// The thread: the server, and its port back to the caller.
if (!isMainThread && (workerData as { mounts?: unknown } | null)?.mounts) {
  const server = staticServer((workerData as { mounts: Record<string, string> }).mounts);
  server.listen(0, '127.0.0.1', () => parentPort!.postMessage((server.address() as AddressInfo).port));
}
