/**
 * `cpmx serve` under the attacks of issue 15, on loopback and on the real catalog. Each attack
 * comes from other loopback addresses (127.0.0.2 and up), run by a process of its own at the
 * lowest CPU priority (on one machine the attackers' work would otherwise be what slows the
 * server), while a probe client, in a process of its own too, asks an ordinary question from
 * 127.0.0.1 on a new connection every 10 ms: at least 99% of the probes must be answered 200
 * within 1 s, and the server's peak memory (VmHWM from /proc) must stay under MEMORY_BOUND_MB. Limits are per client address: what one address does
 * to its own other connections is its own business, what it does to others is tested here.
 * Linux only, as CI is: /proc, and the whole of 127.0.0.0/8 answering on loopback.
 */
import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInto, realCatalogPath, tempDir } from '../helpers.js';
import { heldConnections, memoryOf, openFiles, type ProbeReport, probeFromAnotherProcess, Sockets, socketsOf, startAttack, waitFor } from '../support/attack.js';
import { bodyOf, exchange, pipelined } from '../support/raw-http.js';
import { startServer, type Started } from '../support/serve.js';

/** The most the server process may ever hold resident, attacked or not (it starts near 60 MiB). */
const MEMORY_BOUND_MB = 200;
/** The default --max-connections and --max-connections-per-address. */
const MAX_CONNECTIONS = 1024;
const PER_ADDRESS = 256;
/**
 * The connection being admitted when the server's sockets are listed: accepted, while the one
 * it replaces (closed in the same turn of the server's event loop) is still open.
 */
const ADMITTING = 1;
/** Probes per attack, one every 10 ms: two seconds of them, and 99% leaves room for two late. */
const PROBES = 200;
const PROBE_EVERY_MS = 10;

const dir = tempDir();
let artifact: string;

beforeAll(async () => {
  artifact = await buildInto(realCatalogPath(), dir);
});

/** A server on the real catalog, with the default limits unless `args` say otherwise. */
async function serve(args: string[] = []): Promise<{ server: Started; pid: number }> {
  const server = await startServer(['--data', artifact, ...args]);
  return { server, pid: server.child.pid! };
}

/** Starts the probes; resolves with a function that awaits their report. */
async function probing(server: Started): Promise<() => Promise<ProbeReport>> {
  const probes = probeFromAnotherProcess(server.port, PROBES, { everyMs: PROBE_EVERY_MS });
  await probes.probing;
  return () => probes.report;
}

function expectServed(report: ProbeReport) {
  const failures = report.failures.slice(0, 5).join('; ');
  expect(report.answered / report.sent, `${report.answered} of ${report.sent} probes answered in time; ${failures}`).toBeGreaterThanOrEqual(0.99);
}

/** 127.0.0.2, 127.0.0.3, ...: `count` attacking addresses. */
const attackers = (count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${i + 2}`);

describe('attacks on the connection layer', () => {
  it('pipelined requests whose answers are never read take bounded memory (they took it to 2.86 GB)', async () => {
    const { server, pid } = await serve();
    const baseFiles = openFiles(pid);
    const report = await probing(server);
    const attack = await startAttack(server.port, [
      { localAddress: '127.0.0.2', count: 30, kind: 'pipeline', path: '/query/info_cp/85203?token=demo', requests: 1500 },
      { localAddress: '127.0.0.3', count: 200, kind: 'pipeline', path: '/query/search_cp/0?token=demo', requests: 1500 },
    ]);
    // Each connection is closed once its client has pipelined past the cap without reading.
    await waitFor(() => openFiles(pid) <= baseFiles + 5, 'the flooding connections to be closed');
    expectServed(await report());
    await attack.stop();
    expect(memoryOf(pid).peakMb).toBeLessThan(MEMORY_BOUND_MB);
  });

  it('1,100 sockets that never send or read, reconnecting when closed, leave room for everyone else', async () => {
    const { server, pid } = await serve();
    const before = socketsOf(pid);
    const report = await probing(server);
    const attack = await startAttack(server.port, [
      { localAddress: '127.0.0.2', count: 300, kind: 'idle', reconnect: true },
      ...attackers(5).slice(1).map((localAddress) => ({ localAddress, count: 200, kind: 'idle' as const, reconnect: true })),
    ]);
    const held = heldConnections(pid, before);
    expectServed(await report());
    await attack.stop();
    // Past the limits, new connections took the place of the idlest connections of the
    // address holding most: no address holds more than its share, nobody more than the total.
    // (An evicted socket is closed at once, in the turn that admits its replacement.)
    expect(held.byAddress.get('127.0.0.2')).toBeLessThanOrEqual(PER_ADDRESS + ADMITTING);
    expect(held.total).toBeLessThanOrEqual(MAX_CONNECTIONS + ADMITTING);
    expect(memoryOf(pid).peakMb).toBeLessThan(MEMORY_BOUND_MB);
  });

  it('slowloris: 1,100 requests whose headers never end leave room for everyone else', async () => {
    const { server, pid } = await serve();
    const report = await probing(server);
    const attack = await startAttack(
      server.port,
      attackers(5).map((localAddress) => ({ localAddress, count: 220, kind: 'slowloris', path: '/query/get_estados?token=demo' })),
    );
    expectServed(await report());
    await attack.stop();
    expect(memoryOf(pid).peakMb).toBeLessThan(MEMORY_BOUND_MB);
  });

  it('1,000 malformed requests whose clients never close are answered 400 and their sockets freed', async () => {
    const { server, pid } = await serve();
    const baseFiles = openFiles(pid);
    const report = await probing(server);
    const attack = await startAttack(server.port, attackers(5).map((localAddress) => ({ localAddress, count: 200, kind: 'garbage' })));
    // Ended but never destroyed, each used to hold its slot for good.
    await waitFor(() => openFiles(pid) <= baseFiles + 5, 'the server to free the sockets of the malformed requests');
    expectServed(await report());
    expect((await attack.stop()).answered400).toBe(1000);
  });
});

describe('timeouts fire when they say', () => {
  it('closes a silent connection after --idle-timeout, and answers unfinished headers 408 after --headers-timeout', async () => {
    const { server } = await serve(['--idle-timeout', '1', '--headers-timeout', '2', '--request-timeout', '2']);
    const [silent, partial] = await Promise.all([
      exchange(server.port, ''),
      exchange(server.port, 'GET /query/get_estados?token=demo HTTP/1.1\r\nHost: local'),
    ]);
    expect(silent.text).toBe('');
    expect(silent.ms).toBeGreaterThanOrEqual(1000);
    expect(silent.ms).toBeLessThan(2000);
    expect(partial.status).toBe(408);
    expect(bodyOf(partial.text)).toEqual({ error: true, code_error: 408, error_message: 'La petición no llegó completa a tiempo', response: null });
    expect(partial.ms).toBeGreaterThanOrEqual(2000);
    expect(partial.ms).toBeLessThan(3000);
  });

  it('closes a connection whose answers stay unread after --send-timeout', async () => {
    const { server, pid } = await serve(['--send-timeout', '1', '--max-pipelined', '200']);
    const baseFiles = openFiles(pid);
    const sockets = new Sockets();
    const started = performance.now();
    // 150 answers of 75 KB: more than the kernel's buffers take, fewer than the pipelining
    // cap, so only the unread answers can close the connection.
    const flood = (socket: Socket) => {
      socket.pause();
      socket.write(pipelined('/query/info_cp/85203?token=demo', 150));
    };
    await sockets.open(server.port, 1, { localAddress: '127.0.0.2', onOpen: flood });
    await waitFor(() => openFiles(pid) === baseFiles + 1, 'the connection to be accepted');
    await waitFor(() => openFiles(pid) === baseFiles, 'the connection to be closed');
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(2500);
    sockets.destroy();
  });
});
