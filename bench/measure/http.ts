/**
 * The HTTP load check: `cpmx serve` answering info_cp for catalog codes, next to a bare Node
 * http server answering a constant body of the same size, on loopback, in the same run; and,
 * when given their server, the embeddable handlers (the middleware in node:http, the fetch
 * handler behind @hono/node-server) answering the same requests. The middleware is weighed
 * against the bare server; the fetch handler against a hono app returning the same constant
 * body on the same adapter (what the adapter itself costs is not cpmx's).
 * The same bare server answering each target with cpmx's own bytes for it is weighed against
 * the constant one in the same rounds: what a different answer per code costs by itself.
 * All are loaded with autocannon by 50 connections for a bounded time, in turn, in rounds,
 * each next to its reference, the pair's order alternating between rounds and the pairs' order
 * turning; the references send
 * the same header bytes (an ETag as long as cpmx's). The medians are reported, as the machines
 * are shared and single runs drift.
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

/** The `n`th of the orders of `items` (all of them, in turn, as `n` goes up), e.g. for three: abc, acb, bac, bca, cab, cba. */
export function nthOrder<T>(items: readonly T[], n: number): T[] {
  const left = items.slice();
  const order: T[] = [];
  let count = 1;
  for (let k = 2; k <= left.length; k++) count *= k;
  let index = n % count;
  while (left.length > 0) {
    count /= left.length;
    order.push(left.splice(Math.floor(index / count), 1)[0]!);
    index %= count;
  }
  return order;
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
  log?: (line: string) => void;
}): Promise<HttpResults> {
  const connections = 50;
  const seconds = options.seconds ?? 3;
  // An even number, so each side of a pair runs first in as many rounds as the other: in the
  // quiet runs of 2026-11-22 to 11-25 a side's ratio was about 4 points lower in the rounds it
  // ran first (cpmx serve and the middleware alike), and with 5 rounds the measured side ran
  // first in 3. Twelve, not six: on these shared 2-core machines one round's ratio ranges over
  // 30 points (66% to 101% for cpmx serve in the quiet run of 2026-11-25 05:00, 84% to 111%
  // for the bare server against itself with other bytes), and a median of six such ratios
  // moves by about 5 points from run to run, the whole margin the 95% target is weighed by.
  const rounds = options.rounds ?? 12;
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
  const cpmx = await start(serve, 'cpmx serve');
  const bodyBytes = Math.round(total / paths.length);
  // The references send an ETag as long as cpmx's (one of its own): the same header bytes too.
  const constantEtag = `"${'c'.repeat(Math.max(1, etag.length - 2))}"`;
  const bodyFile = join(options.work, 'bare-body.json');
  const empty = JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: '' } });
  writeFileSync(bodyFile, JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: 'x'.repeat(Math.max(0, bodyBytes - empty.length)) } }));
  const bare = await start([options.bareServer, bodyFile, constantEtag], 'bare server');
  // The same bare server answering each target with cpmx's own bytes for it: what a different
  // answer per code costs a server that does nothing else, weighed against the constant one.
  const answersFile = join(options.work, 'bare-answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  const bytes = await start([options.bareServer, bodyFile, constantEtag, answersFile], 'bare server with cpmx answers');
  const servers = [cpmx, bare, bytes];
  try {
    const handlers: { name: HandlerName; url: string; runs: autocannon.Result[] }[] = [];
    for (const name of options.handlerServer ? (['middleware', 'fetch'] as const) : []) {
      const handler = await start([options.handlerServer!, name, options.artifact], `${name} handler`);
      servers.push(handler);
      handlers.push({ name, url: handler.url, runs: [] });
    }
    const hono = options.handlerServer ? await start([options.handlerServer, 'hono', bodyFile, constantEtag], 'hono constant app') : undefined;
    if (hono) servers.push(hono);
    const honoRuns: autocannon.Result[] = [];
    for (const url of [cpmx.url, bare.url, bytes.url, ...handlers.map((h) => h.url), ...(hono ? [hono.url] : [])]) await load(url, paths, connections, 2);
    const runs = { cpmx: [] as autocannon.Result[], bare: [] as autocannon.Result[], bytes: [] as autocannon.Result[], bytesBare: [] as autocannon.Result[] };
    /** Each handler's round is weighed against a bare run right beside it, as cpmx serve's is. */
    const handlerBare: autocannon.Result[] = [];
    for (let round = 0; round < rounds; round++) {
      options.log?.(`http: round ${round + 1} of ${rounds}, ${seconds} s each ...`);
      // Each server is weighed against its reference run right beside it, the pair's order
      // alternating from round to round: neither side always runs first, after the other
      // servers' runs, or always right after the other.
      const inTurn = async (reference: () => Promise<unknown>, measured: () => Promise<unknown>) => {
        for (const run of round % 2 === 0 ? [measured, reference] : [reference, measured]) await run();
      };
      const into = (results: autocannon.Result[], url: string) => async () => results.push(await load(url, paths, connections, seconds));
      const pairs = [
        () => inTurn(into(runs.bare, bare.url), into(runs.cpmx, cpmx.url)),
        () => inTurn(into(runs.bytesBare, bare.url), into(runs.bytes, bytes.url)),
        ...handlers.map((handler) => {
          // The fetch handler's reference is the hono constant app; the middleware's, the bare server.
          const reference = handler.name === 'fetch' && hono ? into(honoRuns, hono.url) : into(handlerBare, bare.url);
          return () => inTurn(reference, into(handler.runs, handler.url));
        }),
      ];
      // The pairs' order changes from round to round as well, so no pair always runs first, or
      // right after the same other pair (a turning order would keep cpmx serve's right after the
      // fetch handler's). Every 7th of their orders: of four pairs' 24 orders, twelve rounds put
      // each pair first at least twice (taking the orders in turn would keep cpmx serve's first
      // in the first six); of three pairs', all six twice.
      for (const pair of nthOrder(pairs, round * 7)) await pair();
    }
    const ratiosOf = (results: autocannon.Result[], bareRuns = runs.bare) => results.map((run, i) => run.requests.average / bareRuns[i]!.requests.average);
    const ratios = ratiosOf(runs.cpmx);
    const bytesRatios = ratiosOf(runs.bytes, runs.bytesBare);
    const measured: HttpResults = {
      connections,
      seconds,
      rounds,
      bodyBytes,
      cpmx: stat(runs.cpmx),
      bare: stat(runs.bare),
      ratios,
      ratio: median(ratios),
      alternating: true,
      pairsTurn: true,
      bareAnswers: { ...stat(runs.bytes), ratios: bytesRatios, ratio: median(bytesRatios) },
    };
    if (honoRuns.length > 0) measured.honoConstant = stat(honoRuns);
    if (handlers.length > 0) {
      measured.handlers = Object.fromEntries(
        handlers.map((h) => {
          const reference = h.name === 'fetch' && honoRuns.length > 0 ? 'hono' : 'bare';
          const handlerRatios = ratiosOf(h.runs, reference === 'hono' ? honoRuns : handlerBare);
          return [h.name, { ...stat(h.runs), ratios: handlerRatios, ratio: median(handlerRatios), reference }];
        }),
      ) as HttpResults['handlers'];
    }
    return measured;
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}
