/**
 * The router fuzzed through its three doors at once, on the real catalog: 50,000 seeded paths
 * (test/support/fuzz-paths.ts) answered by the library (`client.query`), by `cpmx query` reading
 * them all on stdin, and by `cpmx serve` over pipelined HTTP (the doors of test/support/doors.ts). Nothing may crash, and all three
 * must give the same body (and the library and HTTP the same status) for every path.
 * CPMX_FUZZ_SEED picks another seed; a failure names the seed and the paths that differ.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body } from '../../src/core/contract.js';
import { createClient } from '../../src/index.js';
import { buildInto, ok, realCatalogPath, tempDir } from '../helpers.js';
import { describeDoors } from '../support/doors.js';
import { fuzzPaths } from '../support/fuzz-paths.js';

const SEED = Number(process.env.CPMX_FUZZ_SEED ?? 15);
const COUNT = 50_000;

const dir = tempDir();
let dataPath: string;
let paths: string[];
/** What the library answers to each path: the reference. */
let expected: { status: number; body: string }[];

beforeAll(async () => {
  dataPath = await buildInto(realCatalogPath(), dir);
  const client = createClient({ dataPath, token: 'demo' });
  const codes = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].flatMap((digit) => ok(client.searchCp(digit)).response.cp);
  const states = ok(client.getEstados()).response.estado;
  const municipalities = states.flatMap((estado) => ok(client.getMunicipioPorEstado(estado)).response.municipios);
  paths = fuzzPaths(SEED, COUNT, { codes, states, municipalities });
  // The reference has no token of its own, as `cpmx query` and `cpmx serve` run here have none.
  const reference = createClient({ dataPath });
  expected = paths.map((path) => {
    const { status, body } = reference.query(path);
    return { status, body: JSON.stringify(body) };
  });
});

/** The paths whose answer differs from the library's, as readable lines (at most 5). */
function differences(answers: { status?: number; body: string }[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < paths.length && found.length < 5; i++) {
    const answer = answers[i];
    const same = answer !== undefined && answer.body === expected[i]!.body && (answer.status === undefined || answer.status === expected[i]!.status);
    if (!same) found.push(`seed ${SEED}, path ${i} ${JSON.stringify(paths[i])}: expected ${expected[i]!.status} ${expected[i]!.body.slice(0, 200)}, got ${answer?.status ?? ''} ${answer?.body.slice(0, 200)}`);
  }
  return found;
}

describe(`${COUNT.toLocaleString('en')} fuzzed paths, seed ${SEED}`, () => {
  it('reach every answer of the contract', () => {
    const seen = new Set<string>();
    for (const { status, body } of expected) {
      const parsed = JSON.parse(body) as Body;
      seen.add(Array.isArray(parsed) || !parsed.error ? `ok ${status}` : `error ${parsed.code_error}`);
    }
    // Every error the router can give without a registry, and successes.
    // 145: info_cp_geocoding_reverse without lat/lng (this artifact has no geodata, so its other answers are 113).
    const codes = [101, 102, 104, 105, 106, 109, 110, 111, 112, 113, 114, 115, 116, 117, 145];
    expect([...seen].sort()).toEqual([...codes.map((code) => `error ${code}`), 'ok 200']);
  });
});

// The library's answers are the reference; each other door must give the same body (and status, where it has one).
describeDoors(
  `${COUNT.toLocaleString('en')} fuzzed paths, seed ${SEED}`,
  () => ({ dataPath }),
  (door) => {
    it('are answered each exactly as the library does, and the door stays up', async () => {
      const answers = await door().ask(paths);
      expect(answers).toHaveLength(COUNT);
      expect(differences(answers)).toEqual([]);
      if (door().name === 'cpmx serve') {
        expect((await door().ask(['/health']))[0]!.status).toBe(200);
        expect(door().output()).not.toMatch(/Error|at /);
      }
    });
  },
  ['cpmx query', 'cpmx serve'],
);
