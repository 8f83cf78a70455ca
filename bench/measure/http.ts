/**
 * The HTTP load check: `cpmx serve` answering info_cp for catalog codes, next to a bare Node
 * http server answering a constant body of the same size, on loopback, in the same run; and,
 * when given their server, the embeddable handlers (the middleware in node:http, the fetch
 * handler behind @hono/node-server) answering the same requests. The middleware is weighed
 * against a bare server; the fetch handler against a hono app returning the same constant
 * body on the same adapter (what the adapter itself costs is not cpmx's).
 * A bare server answering each target with cpmx's own bytes for it is weighed against a
 * constant one: what a different answer per code costs by itself. And two identical constant
 * servers are weighed against each other: the harness's own bias and spread.
 * Each pair (a measured server and a reference process of its own) is loaded with autocannon
 * by 50 connections, in a block of its own, the two back to back in every round, which one
 * runs first alternating, both started anew every two rounds; the references send the same
 * header bytes (an ETag as long as cpmx's). The medians of the rounds' ratios are reported, as
 * the machines are shared and single runs drift.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { HandlerName, HttpResults, HttpStat } from '../results.js';
import { median } from '../stats.js';

export function start(command: string[], label: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${label} exited ${code}: ${output}`)));
  });
}

/** `paths` asked in turn by `connections` clients for `seconds`, with `headers` on each request. */
export function load(url: string, paths: string[], connections: number, seconds: number, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers, requests: paths.map((path) => ({ method: 'GET', path })) }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

export function stat(results: autocannon.Result[]): HttpStat {
  return {
    requestsPerSecond: median(results.map((r) => r.requests.average)),
    latencyP50Ms: median(results.map((r) => r.latency.p50)),
    latencyP99Ms: median(results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    requests: results.reduce((sum, r) => sum + r.requests.total, 0),
  };
}

/** Runs the check against the artifact at `artifact`; `codes` are the info_cp codes asked for. */
export async function httpLoad(options: {
  cli: string;
  bareServer: string;
  /** bench/handler-server.js: the handlers are measured when it is given. */
  handlerServer?: string;
  artifact: string;
  work: string;
  codes: string[];
  seconds?: number;
  rounds?: number;
  /** Pairs of processes each pair's rounds are spread over (they divide `rounds` into even shares). */
  generations?: number;
  log?: (line: string) => void;
}): Promise<HttpResults> {
  const connections = 50;
  const seconds = options.seconds ?? 3;
  // An even number, so each side of a pair runs first in as many rounds as the other: in the
  // quiet runs of 2026-11-22 to 11-25 a side's ratio was about 4 points lower in the rounds it
  // ran first. Twelve: on these shared 2-core machines one round's ratio ranges over 30 points,
  // and a median of six such ratios moved by about 5 points from run to run.
  const rounds = options.rounds ?? 12;
  // Six pairs of processes of two rounds each: each side runs first once with each process.
  const generations = options.generations ?? 6;
  const perGeneration = rounds / generations;
  if (!Number.isInteger(perGeneration) || perGeneration % 2 !== 0) throw new RangeError(`${rounds} rounds do not share evenly (in even numbers) among ${generations} pairs of processes`);
  // Every code of the workload (4,096 drawn across the whole catalog, shuffled), each client
  // walking the list: no one URL repeated, so no answer is cheaper for being asked again and again.
  const paths = options.codes.map((cp) => `/query/info_cp/${cp}?token=bench&type=simplified`);
  const serve = [options.cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', options.artifact];
  // The reference body: as long as cpmx's answers to the same requests are on average, so
  // both servers put the same bytes on the wire. The answers come from a cpmx serve of their
  // own: the measured one then sees only the load's requests, as the references do (in the
  // runs of 2026-11-25, a cpmx serve that had first answered these 4,096 requests one by one
  // from fetch ran 5 to 15 points below an identical one that had not, in the same rounds).
  let total = 0;
  let etag = '"constant"';
  const answers: Record<string, string> = {};
  const sampler = await start(serve, 'cpmx serve (for its answers)');
  try {
    for (const path of paths) {
      const response = await fetch(sampler.url + path);
      answers[path] = await response.text();
      total += Buffer.byteLength(answers[path]);
      etag = response.headers.get('etag') ?? etag;
    }
  } finally {
    sampler.child.kill('SIGTERM');
  }
  const bodyBytes = Math.round(total / paths.length);
  // The references send an ETag as long as cpmx's (one of its own): the same header bytes too.
  const constantEtag = `"${'c'.repeat(Math.max(1, etag.length - 2))}"`;
  const bodyFile = join(options.work, 'bare-body.json');
  const empty = JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: '' } });
  writeFileSync(bodyFile, JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: 'x'.repeat(Math.max(0, bodyBytes - empty.length)) } }));
  const answersFile = join(options.work, 'bare-answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  const bareCommand = [options.bareServer, bodyFile, constantEtag];
  const running = new Set<ChildProcess>();
  try {
    // Every pair has a reference process of its own, so its two servers have the same history:
    // started together, loaded only in their own block. (With one bare server shared by every
    // pair, the reference ran three or four times a round and the measured servers once, and in
    // the quiet runs of 2026-11-25 an identical cpmx serve measured 91.2% in serve's pair and
    // 97.3% in another: the harness's own bias.)
    // Two identical constant servers: what this harness gives when there is nothing to find.
    const calibration = pair('calibration', [bareCommand, 'bare server (calibration)'], [bareCommand, 'bare server (calibration reference)']);
    const cpmx = pair('serve', [serve, 'cpmx serve'], [bareCommand, 'bare server']);
    // The same bare server answering each target with cpmx's own bytes for it: what a
    // different answer per code costs a server that does nothing else.
    const bytes = pair('bytes', [[...bareCommand, answersFile], 'bare server with cpmx answers'], [bareCommand, 'bare server (bytes reference)']);
    const handler = (name: string, ...args: string[]): Launch => [[options.handlerServer!, name, ...args], `${name} handler`];
    const handlers = options.handlerServer
      ? {
          middleware: pair('middleware', handler('middleware', options.artifact), [bareCommand, 'bare server (middleware reference)']),
          // The fetch handler's reference: a hono app returning the constant body on the same adapter.
          fetch: pair('fetch', handler('fetch', options.artifact), handler('hono', bodyFile, constantEtag)),
        }
      : undefined;
    const pairs = [calibration, cpmx, bytes, ...(handlers ? [handlers.middleware, handlers.fetch] : [])];
    // Each pair in a block of its own: its two servers back to back in every round, which one
    // runs first alternating (measured, reference; reference, measured; ...), so a drift in the
    // machine's speed over the block weighs on both alike, and no other server's run ever comes
    // between a pair's two. Within the block both are started anew every `perGeneration`
    // rounds and warmed up again: a process is faster or slower than an identical one for the
    // whole of its life (in the quiet runs of 2026-11-25, two identical bare servers came out
    // 97.6%, 100.3%, 102.3% and 95.6% over four pairs of processes, most rounds of a pair on
    // the same side), so the ratios are those of several pairs of processes, not of one.
    for (const [index, { name, measured, reference, runs }] of pairs.entries()) {
      options.log?.(`http: ${name} (${index + 1} of ${pairs.length}), ${generations} pairs of processes, ${perGeneration} rounds of ${seconds} s runs each ...`);
      for (let generation = 0; generation < generations; generation++) {
        const measuredServer = await launch(measured, running);
        const referenceServer = await launch(reference, running);
        try {
          for (const url of [measuredServer.url, referenceServer.url]) await load(url, paths, connections, 2);
          for (let round = 0; round < perGeneration; round++) {
            const inTurn: [autocannon.Result[], string][] = [
              [runs.measured, measuredServer.url],
              [runs.reference, referenceServer.url],
            ];
            for (const [results, url] of round % 2 === 0 ? inTurn : inTurn.reverse()) results.push(await load(url, paths, connections, seconds));
          }
        } finally {
          await stop(measuredServer.child, running);
          await stop(referenceServer.child, running);
        }
      }
    }
    const weighed = ({ runs }: Pair) => {
      const ratios = runs.measured.map((run, i) => run.requests.average / runs.reference[i]!.requests.average);
      return { ...stat(runs.measured), ratios, ratio: median(ratios) };
    };
    const { ratios, ratio } = weighed(cpmx);
    const measured: HttpResults = {
      connections,
      seconds,
      rounds,
      bodyBytes,
      cpmx: stat(cpmx.runs.measured),
      bare: stat(cpmx.runs.reference),
      ratios,
      ratio,
      alternating: true,
      blocks: true,
      generations,
      bareAnswers: weighed(bytes),
      calibration: weighed(calibration),
    };
    if (handlers) {
      measured.honoConstant = stat(handlers.fetch.runs.reference);
      measured.handlers = { middleware: { ...weighed(handlers.middleware), reference: 'bare' }, fetch: { ...weighed(handlers.fetch), reference: 'hono' } };
    }
    return measured;
  } finally {
    for (const child of running) child.kill('SIGTERM');
  }
}

/** A server to start: its command (node's arguments) and its label in errors. */
type Launch = [command: string[], label: string];

interface Pair {
  name: 'calibration' | 'serve' | 'bytes' | HandlerName;
  measured: Launch;
  reference: Launch;
  runs: { measured: autocannon.Result[]; reference: autocannon.Result[] };
}

function pair(name: Pair['name'], measured: Launch, reference: Launch): Pair {
  return { name, measured, reference, runs: { measured: [], reference: [] } };
}

/** Starts `server`, keeping its process in `running` until it is stopped. */
async function launch([command, label]: Launch, running: Set<ChildProcess>): Promise<{ url: string; child: ChildProcess }> {
  const server = await start(command, label);
  running.add(server.child);
  return server;
}

/** Stops `child` and waits for it to be gone (SIGKILL after 5 s), so that it never runs beside the next pair. */
async function stop(child: ChildProcess, running: Set<ChildProcess>): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
