/**
 * Issue 22, item 4: one NDJSON record of 8 KB nested 4,000 levels deep aborted `cpmx validate`
 * ("Maximum call stack size exceeded", exit 70, no results; the outcome depended on --jobs)
 * and made `validateAddress` throw. Now that record alone gets a 130 with its reason, the same
 * whatever --jobs, and the library answers without throwing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CpmxClient } from '../../src/index.js';
import { validateAddress, validateStream, type AddressRecord } from '../../src/validate/index.js';
import { FIXTURE, buildInto, tempDir } from '../helpers.js';
import { bad, ok, unreadable, validate } from './support.js';

const dir = tempDir();
let dataPath: string;
let client: CpmxClient;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  client = createClient({ token: 'depth-test', dataPath });
});

const DEPTH = 4000;
const deepArray = () => `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
/** A value nested DEPTH deep, built without recursion. */
function nested(): unknown[] {
  const outer: unknown[] = [];
  let inner = outer;
  for (let i = 1; i < DEPTH; i++) inner.push((inner = []));
  return outer;
}

const GOOD = '{"cp":"09810","colonia":"Granjas Esmeralda"}';

describe('an NDJSON record nested 4,000 deep', () => {
  it('gets its own 130, the records around it are judged, whatever --jobs (ranges judged here and in workers)', () => {
    // Enough good records before it that, with --jobs 2, a worker judges the deep one.
    const before = Array.from({ length: 3000 }, () => GOOD);
    const deep = `{"cp":${deepArray()}}`;
    expect(deep.length).toBeGreaterThan(8000);
    const path = join(dir, 'deep.ndjson');
    writeFileSync(path, `${[...before, deep, `{"cp":"09810","extra":{"x":${deepArray()}}}`, GOOD].join('\n')}\n`);
    const runs = ['1', '2'].map((jobs) => validate(dataPath, [path, '--jobs', jobs, '--token', 'demo', '--invalid-only']));
    for (const run of runs) {
      expect(run.stderr).not.toMatch(/Maximum call stack|unexpected failure|\n\s+at /);
      expect(run.status).toBe(1);
      expect(run.lines).toEqual([
        bad(3001, [unreadable('nested deeper than 64 levels at column 70')]),
        bad(3002, [unreadable('nested deeper than 64 levels at column 90')]),
      ]);
    }
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
  });

  it('is refused by validateStream too, and a bracket inside a string is text, not nesting', async () => {
    const lines = [`{"cp":${deepArray()}}`, `{"cp":"09810","colonia":"Granjas Esmeralda","nota":"${'['.repeat(200)}"}`];
    const results = [];
    for await (const result of validateStream(client, [`${lines.join('\n')}\n`], { format: 'ndjson' })) results.push(result);
    expect(results).toEqual([bad(1, [unreadable('nested deeper than 64 levels at column 70')]), ok(2)]);
  });
});

describe('validateAddress given nested values', () => {
  it('answers, never throws: a field holding an array or an object is unreadable (130), however deep', () => {
    expect(validateAddress(client, { cp: nested() } as unknown as AddressRecord)).toEqual({
      valid: false,
      errors: [unreadable('cp holds an array, not text')],
      suggestions: {},
    });
    expect(validateAddress(client, { cp: '09810', colonia: { a: nested() } } as unknown as AddressRecord)).toEqual({
      valid: false,
      errors: [unreadable('asentamiento holds an object, not text')],
      suggestions: {},
    });
    expect(validateAddress(client, { cp: '09810', ciudad: Symbol('x') } as unknown as AddressRecord).errors[0]!.reason).toBe('ciudad holds a symbol, not text');
    // Keys other than the address fields are never read.
    expect(validateAddress(client, { cp: '09810', extra: nested() } as unknown as AddressRecord).valid).toBe(true);
    // A record whose reading throws is unreadable, not a thrown error.
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } });
    expect(validateAddress(client, trap as AddressRecord).errors[0]!.reason).toBe('cannot be read (no keys)');
    const getter = { cp: '09810', get colonia(): string { throw new Error('gone'); } };
    expect(validateAddress(client, getter).errors[0]!.reason).toBe('cannot be read (gone)');
  });
});
