/**
 * Tools for attacking `cpmx serve` on loopback, as the hardening tests do: many hostile
 * connections from chosen loopback addresses, a probe client that measures whether ordinary
 * requests keep being answered meanwhile, and the server process's memory and open sockets
 * read from /proc.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { root } from '../helpers.js';
import { exchange } from './raw-http.js';

/** The server's memory from /proc: resident now and its peak so far (VmHWM), in MiB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kib('VmRSS') / 1024, peakMb: kib('VmHWM') / 1024 };
}

/** File descriptors the process holds open (each connection is one). */
export function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** An IPv4 address as /proc/net/tcp writes it (little-endian hex, with a port): `0100007F:1F90`. */
function procAddress(hex: string): string {
  const ip = hex.split(':')[0]!;
  return [6, 4, 2, 0].map((at) => Number.parseInt(ip.slice(at, at + 2), 16)).join('.');
}

/** The inodes of the sockets the process holds open (/proc/PID/fd): its connections, its listening socket, its stdio pipes. */
export function socketsOf(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed while listed
    }
  }
  return inodes;
}

/** The connections a server holds at one instant: how many, and how many from each client IPv4 address. */
export interface HeldConnections {
  total: number;
  byAddress: Map<string, number>;
}

/**
 * The TCP connections the process holds: its sockets (one listing of /proc/PID/fd, taken at
 * an instant) but for those it held before any client came (`before`: its listening socket
 * and stdio), attributed to their clients' addresses through /proc/net/tcp. That table is
 * written a page at a time, and each read resumes by position: while connections come and go,
 * a line can be read twice or not at all (with a full test run's thousands of TIME_WAIT lines
 * it is megabytes long, and one run read 1,147 lines for 1,024 sockets held). So the total is
 * the listing's, each socket is attributed once (by its inode), and the table is read twice so
 * that a line one read skips is found by the other.
 */
export function heldConnections(pid: number, before: Set<string>): HeldConnections {
  const held = [...socketsOf(pid)].filter((inode) => !before.has(inode));
  const wanted = new Set(held);
  const clients = new Map<string, string>();
  for (let read = 0; read < 2; read++) {
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length >= 10 && wanted.has(fields[9]!)) clients.set(fields[9]!, procAddress(fields[2]!));
    }
  }
  const byAddress = new Map<string, number>();
  for (const client of clients.values()) byAddress.set(client, (byAddress.get(client) ?? 0) + 1);
  return { total: held.length, byAddress };
}

/** Resolves once `condition()` holds, checking every 20 ms; fails after `timeoutMs` saying what was awaited. */
export function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      setTimeout(check, 20);
    };
    check();
  });
}

export interface ProbeReport {
  sent: number;
  /** Probes answered 200 within the deadline. */
  answered: number;
  /** What went wrong with the others. */
  failures: string[];
  slowestMs: number;
}

/**
 * An ordinary client: every `everyMs`, one GET on a new connection, each given `deadlineMs`
 * to be answered 200. Runs until `stop()`, which resolves once every probe sent has ended.
 */
export function probe(port: number, options: ProbeOptions = {}) {
  const path = options.path ?? '/query/info_cp/09810?token=demo';
  const deadlineMs = options.deadlineMs ?? 1_000;
  const request = `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;
  const pending: Promise<void>[] = [];
  const report: ProbeReport = { sent: 0, answered: 0, failures: [], slowestMs: 0 };
  const send = () => {
    report.sent++;
    pending.push(
      exchange(port, request, { localAddress: options.localAddress, timeoutMs: deadlineMs }).then((result) => {
        report.slowestMs = Math.max(report.slowestMs, result.ms);
        if (result.status === 200 && !result.error) report.answered++;
        else report.failures.push(`${result.status ?? 'no answer'} after ${Math.round(result.ms)} ms${result.error ? ` (${result.error})` : ''}`);
      }),
    );
  };
  let enough: (() => void) | undefined;
  let target = Number.POSITIVE_INFINITY;
  const timer = setInterval(() => {
    send();
    if (report.sent >= target) enough?.();
  }, options.everyMs ?? 25);
  send();
  const stop = async (): Promise<ProbeReport> => {
    clearInterval(timer);
    await Promise.all(pending);
    return report;
  };
  return {
    stop,
    /** Goes on until `count` probes in all were sent, then stops. */
    until(count: number): Promise<ProbeReport> {
      target = count;
      if (report.sent >= count) return stop();
      return new Promise<void>((resolve) => (enough = resolve)).then(stop);
    },
  };
}

export interface ProbeOptions {
  path?: string;
  everyMs?: number;
  deadlineMs?: number;
  localAddress?: string;
}

/**
 * Probes `count` times from a process of their own (test/support/probe-client.ts), so that the
 * attackers' work in this one cannot delay them: `probing` resolves once the first probe is
 * sent, `report` once the last has ended.
 */
export function probeFromAnotherProcess(port: number, count: number, options: ProbeOptions = {}): { probing: Promise<void>; report: Promise<ProbeReport> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'support', 'probe-client.ts'), JSON.stringify({ port, count, ...options })], { cwd: root });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const probing = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith('probing\n')) resolve();
    });
    child.on('exit', () => reject(new Error(`the probe client exited before probing: ${errors}`)));
  });
  const report = new Promise<ProbeReport>((resolve, reject) =>
    child.on('exit', (code) => {
      const line = output.split('\n')[1];
      if (code === 0 && line) resolve(JSON.parse(line) as ProbeReport);
      else reject(new Error(`the probe client failed (exit ${code}): ${errors}`));
    }),
  );
  return { probing, report };
}

/** A set of hostile connections, and how many of them the server still holds open. */
export class Sockets {
  /** Every connection opened and not yet closed. */
  readonly all = new Set<Socket>();
  /** Connections the server has closed (their `end` or `close` arrived). */
  closedByServer = 0;
  #stopped = false;

  /**
   * Opens `count` connections from `localAddress`, calling `onOpen` on each once connected;
   * resolves once all have connected or failed. `reconnect`: each one the server closes is
   * opened again, until `destroy()`.
   */
  open(port: number, count: number, options: { localAddress: string; onOpen?: (socket: Socket) => void; reconnect?: boolean }): Promise<void> {
    const opened: Promise<void>[] = [];
    for (let i = 0; i < count; i++) opened.push(this.#openOne(port, options));
    return Promise.all(opened).then(() => undefined);
  }

  #openOne(port: number, options: { localAddress: string; onOpen?: (socket: Socket) => void; reconnect?: boolean }): Promise<void> {
    return new Promise((resolve) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
      this.all.add(socket);
      let ended = false;
      const serverClosed = () => {
        if (ended) return;
        ended = true;
        this.closedByServer++;
        socket.destroy();
        if (options.reconnect && !this.#stopped) void this.#openOne(port, options);
      };
      socket.on('connect', () => {
        options.onOpen?.(socket);
        resolve();
      });
      socket.on('end', serverClosed);
      socket.on('error', () => {
        resolve();
        serverClosed();
      });
      socket.on('close', () => {
        this.all.delete(socket);
        resolve();
        if (!this.#stopped) serverClosed();
      });
    });
  }

  destroy(): void {
    this.#stopped = true;
    for (const socket of this.all) socket.destroy();
  }
}

/** One kind of hostile client, `count` times from one address. */
export interface AttackGroup {
  localAddress: string;
  count: number;
  /**
   * idle: connects and sends nothing; pipeline: sends `requests` pipelined GETs of `path` and
   * never reads; slowloris: starts a request and sends one more header line every 300 ms,
   * never ending it; garbage: sends a line that is not HTTP and never closes.
   */
  kind: 'idle' | 'pipeline' | 'slowloris' | 'garbage';
  path?: string;
  requests?: number;
  /** Opens a connection again whenever the server closes one. */
  reconnect?: boolean;
}

export interface AttackReport {
  /** Connections the server closed. */
  closedByServer: number;
  /** Answers `400` received (garbage). */
  answered400: number;
}

/** What each kind of attacker does once connected. */
export function attackerOf(group: AttackGroup, report: AttackReport): (socket: Socket) => void {
  switch (group.kind) {
    case 'idle':
      return () => undefined;
    case 'pipeline':
      return (socket) => {
        socket.pause(); // never reads an answer
        socket.write(`GET ${group.path} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(group.requests ?? 1));
      };
    case 'slowloris':
      return (socket) => {
        socket.write(`GET ${group.path ?? '/'} HTTP/1.1\r\nHost: localhost\r\n`);
        const timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
        socket.on('close', () => clearInterval(timer));
      };
    case 'garbage':
      return (socket) => {
        socket.write('NOT HTTP AT ALL\r\n\r\n');
        socket.once('data', (chunk: Buffer) => chunk.toString().startsWith('HTTP/1.1 400 ') && report.answered400++);
      };
  }
}

/**
 * Runs `groups` from a process of their own (test/support/attack-client.ts) at the lowest CPU
 * priority: on loopback the attackers share the machine with the server, and their own work
 * must not be what slows the server down. Resolves once every connection is opened (and has
 * sent what it sends); `stop()` closes them all and resolves with the report.
 */
export async function startAttack(port: number, groups: AttackGroup[]): Promise<{ stop(): Promise<AttackReport> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'support', 'attack-client.ts'), JSON.stringify({ port, groups })], { cwd: root });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.startsWith('attacking\n') && resolve());
    void exited.then(() => reject(new Error(`the attack client exited before attacking: ${errors}`)));
  });
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      const line = output.split('\n')[1];
      if (code !== 0 || !line) throw new Error(`the attack client failed (exit ${code}): ${errors}`);
      return JSON.parse(line) as AttackReport;
    },
  };
}
