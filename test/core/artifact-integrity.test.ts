/**
 * An artifact cannot lie: damaged bytes (flipped bits, overwritten, cut or inserted bytes)
 * are refused with the ArtifactError that says to rebuild, at load (its head) or where a page
 * is first read (format 6: pages.ts), or, where the damage misses everything an answer reads,
 * answered exactly as the good file answers. Never silently wrong, never a TypeError. A forged
 * file with right checksums is caught by the bounds checks.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { Packr } from 'msgpackr';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeArtifact } from '../../build/write.js';
import { catalogSource } from '../../src/client/catalog-source.js';
import { ArtifactError, decodeCatalog, readArtifact, type Catalog } from '../../src/core/catalog.js';
import { crc32 } from '../../src/core/crc32.js';
import { PAYLOAD_AT, SECTIONS, readPayload } from '../../src/core/layout.js';
import { FORMAT_VERSION, type Artifact } from '../../src/core/format.js';
import { route } from '../../src/core/router.js';
import { random } from '../../bench/workload.js';
import { CLI, FIXTURE, buildInto, realCatalogPath, tempDir } from '../helpers.js';

const dir = tempDir();

/** `bytes` with `at` flipped by `mask`. */
function flip(bytes: Uint8Array, at: number, mask: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = copy[at]! ^ mask;
  return copy;
}

/** One kind of damage, chosen and placed by `next`. */
function damage(good: Uint8Array, next: () => number): Uint8Array {
  const at = Math.floor(next() * good.length);
  switch (Math.floor(next() * 5)) {
    case 0:
      return flip(good, at, 1 << Math.floor(next() * 8));
    case 1:
      return flip(good, at, 1 + Math.floor(next() * 255));
    case 2:
      return good.subarray(0, at);
    case 3: {
      const longer = new Uint8Array(good.length + 1);
      longer.set(good.subarray(0, at));
      longer[at] = Math.floor(next() * 256);
      longer.set(good.subarray(at), at + 1);
      return longer;
    }
    default: {
      const bytes = new Uint8Array(good);
      bytes.fill(0, at, at + 1 + Math.floor(next() * 64));
      return bytes;
    }
  }
}

/** What a catalog answers to `paths`, every answer as JSON. */
function answers(catalog: Catalog, paths: readonly string[]): string[] {
  return paths.map((path) => JSON.stringify(route(path, { catalog: () => catalog })));
}

/**
 * What `catalog` answers to each of `paths`: the good file's answer, or the ArtifactError that
 * `reason` matches (thrown where a damaged part is first read); the paths refused.
 */
function refusedOrGood(catalog: Catalog, paths: readonly string[], expected: readonly string[], reason: RegExp, what: string): string[] {
  const refused: string[] = [];
  paths.forEach((path, i) => {
    let answer: string;
    try {
      answer = JSON.stringify(route(path, { catalog: () => catalog }));
    } catch (error) {
      expect(error, `${what}: ${path}`).toBeInstanceOf(ArtifactError);
      expect((error as Error).message, `${what}: ${path}`).toMatch(reason);
      refused.push(path);
      return;
    }
    expect(answer, `${what}: ${path} answered: it must answer as the good file`).toBe(expected[i]);
  });
  return refused;
}

/** Damages `good` `count` times; each result is refused (at load, or where a damaged page is read) or answers exactly as the good one. */
function attack(good: Uint8Array, paths: readonly string[], count: number, seed: number) {
  const expected = answers(decodeCatalog(good, 'good'), paths);
  const next = random(seed);
  let refused = 0;
  let unchanged = 0;
  for (let i = 0; i < count; i++) {
    const bad = damage(good, next);
    // Zeros written over zeros (the pages' padding) change nothing: such a file is the good one.
    if (bad.length === good.length && bad.every((byte, at) => byte === good[at])) continue;
    let catalog: Catalog;
    try {
      catalog = decodeCatalog(bad, 'bad');
    } catch (error) {
      expect(error, `damage ${i}`).toBeInstanceOf(ArtifactError);
      expect((error as Error).message).toMatch(/run `cpmx build`/);
      refused++;
      continue;
    }
    if (refusedOrGood(catalog, paths, expected, /^bad: is damaged .*run `cpmx build`/, `damage ${i}`).length > 0) refused++;
    else unchanged++;
  }
  return { refused, unchanged };
}

function fixturePaths(catalog: Catalog): string[] {
  const paths = ['/query/get_estados?token=t'];
  for (const cp of catalog.codesStartingWith('0').concat(...'123456789'.split('').map((d) => catalog.codesStartingWith(d)))) {
    paths.push(`/query/info_cp/${cp}?token=t`, `/query/info_cp/${cp}?token=t&type=simplified`);
  }
  for (const digit of '0123456789') paths.push(`/query/search_cp/${digit}?token=t`);
  for (const estado of catalog.stateNames()) paths.push(`/query/get_municipio_por_estado/${encodeURIComponent(estado)}?token=t`);
  return paths;
}

let fixture: Uint8Array;

beforeAll(async () => {
  fixture = readFileSync(await buildInto(FIXTURE, dir));
});

describe('a damaged artifact', () => {
  it('is refused or answers as the good one: 500 random damages of the fixture, none silently wrong', () => {
    const { refused, unchanged } = attack(fixture, fixturePaths(decodeCatalog(fixture, 'good')), 500, 20261122);
    expect(refused + unchanged).toBeGreaterThan(450);
    // Almost every byte is covered by a checksum, and the paths read every page (search_cp reads
    // the whole trie, which has every page checked): only the envelope's own bytes can change unseen.
    expect(refused / (refused + unchanged)).toBeGreaterThan(0.98);
  });

  it('is refused or answers as the good one on the real catalog too (200 damages, 600 queries each)', async () => {
    const real = readFileSync(await buildInto(realCatalogPath(), dir, 'real.msgpack'));
    const catalog = decodeCatalog(real, 'good');
    const next = random(7);
    const codes = catalog.codesStartingWith('0').concat(...'123456789'.split('').map((d) => catalog.codesStartingWith(d)));
    const paths = Array.from({ length: 300 }, () => codes[Math.floor(next() * codes.length)]!).flatMap((cp) => [
      `/query/info_cp/${cp}?token=t`,
      `/query/search_cp/${cp.slice(0, 3)}?token=t`,
    ]);
    const { refused, unchanged } = attack(real, paths, 200, 11);
    expect(refused + unchanged).toBeGreaterThan(190);
  }, 120_000);

  it('says it is damaged and to rebuild, through the checksum: of its head at load, of a page before anything in it is read', () => {
    const headEnd = new DataView(fixture.buffer, fixture.byteOffset).getUint32(PAYLOAD_AT, true);
    expect(() => decodeCatalog(flip(fixture, PAYLOAD_AT + 10, 0x20), '/x/cpmx.msgpack')).toThrow(
      '/x/cpmx.msgpack: is damaged (its checksum does not match: it changed after it was built); run `cpmx build`',
    );
    const page = decodeCatalog(flip(fixture, headEnd + 3, 0x20), '/x/cpmx.msgpack');
    expect(() => page.stateNames()).toThrow(/^\/x\/cpmx\.msgpack: is damaged \(page 0 of \d+ does not match its checksum: it changed after it was built\); run `cpmx build`/);
    const table = decodeCatalog(flip(fixture, fixture.length - 3, 0x20), '/x/cpmx.msgpack');
    expect(() => table.stateNames()).toThrow(/is damaged \(the table of page checksums does not match its own: it changed after it was built\)/);
  });

  it('answers a code from the good pages while a page it does not read is damaged, and refuses every method that reads that page', async () => {
    const real = readFileSync(await buildInto(realCatalogPath(), dir, 'real.msgpack'));
    const good = decodeCatalog(real, 'good');
    // The last page of the settlement names: no name of 09810 lies there.
    const names = readPayload(real).sections[SECTIONS.indexOf('settlements.bytes')]!.column!;
    const bad = decodeCatalog(flip(real, names.byteOffset + names.length - 1, 0x01), 'bad');
    expect(bad.postalCodeEntry('09810')).toEqual(good.postalCodeEntry('09810'));
    expect(() => bad.codeRunsOfState(0)).toThrow(/^bad: is damaged \(page \d+ of \d+ does not match its checksum/);
    expect(() => bad.settlementNameAt(bad.codeEntry(0).length)).not.toThrow(TypeError);
  });

  it('reads only the pages a first answer needs from a file: a few blocks, not the whole file', async () => {
    const path = await buildInto(realCatalogPath(), dir, 'real.msgpack');
    const bytes = readFileSync(path);
    const file = new Uint8Array(bytes.length);
    let read = 0;
    const fill = (from: number, to: number) => {
      for (let at = from; at < to; at++) if (file[at] === 0 && bytes[at] !== 0) file[at] = bytes[at]!;
      read += to - from;
    };
    file.set(bytes.subarray(0, 4096));
    const catalog = decodeCatalog(file, path, fill);
    expect(catalog.postalCodeEntry('09810')).toEqual(decodeCatalog(bytes, 'good').postalCodeEntry('09810'));
    expect(read).toBeLessThan(bytes.length / 50);
    catalog.codesStartingWith('0');
    expect(read).toBeGreaterThanOrEqual(bytes.length - 4096);
  });

  it('of the layout before the checksum (format 2: no envelope) gets the rebuild message for its version', () => {
    const old = new Packr({ moreTypes: true, useRecords: false }).pack({ ...readArtifact(fixture), header: { ...readArtifact(fixture).header, version: 2 } });
    expect(() => decodeCatalog(old, '/x/old.msgpack')).toThrow(
      `/x/old.msgpack: is an artifact of format version 2, and this cpmx reads version ${FORMAT_VERSION}; run \`cpmx build\``,
    );
  });

  it('is refused by the CLI with exit 2 and the message, not a stack trace', () => {
    const bad = flip(fixture, fixture.length - 100, 0xff);
    const path = join(dir, 'damaged.msgpack');
    writeFileSync(path, bad);
    const run = spawnSync(process.execPath, [CLI, 'info_cp', '09810', '--token', 'demo', '--data', path], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${path}: is damaged`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('checks with the same CRC-32 as zlib, so either may be used', () => {
    expect(catalogSource(join(dir, 'cpmx.msgpack')).get().header.rows).toBe(22);
    for (const length of [0, 1, 3, 4, 5, 1000, fixture.length]) {
      const bytes = fixture.subarray(0, length);
      expect(crc32(bytes), `${length} bytes`).toBe(zlib.crc32(bytes));
    }
  });
});


describe('a forged artifact (right checksum, wrong insides)', () => {
  const forge = (change: (artifact: Artifact) => void) => {
    const artifact = readArtifact(fixture);
    change(artifact);
    return encodeArtifact(artifact);
  };

  /** Each case's forged file: refused at load, or answering every path as the good one or refused with its reason, and refused at least once. */
  const refusedWhereRead = (cases: [string, (artifact: Artifact) => void][], reason: (what: string) => RegExp) => {
    const good = decodeCatalog(fixture, 'good');
    const paths = fixturePaths(good);
    const expected = answers(good, paths);
    for (const [what, change] of cases) {
      let forged: Catalog;
      try {
        forged = decodeCatalog(forge(change), '/x/forged.msgpack');
      } catch (error) {
        expect((error as Error).message, what).toMatch(reason(what));
        continue;
      }
      expect(refusedOrGood(forged, paths, expected, reason(what), what).length, what).toBeGreaterThan(0);
    }
  };

  // Checked with the small columns whole, before the first method that reads them whole (a
  // code's first lookup checks the municipality it reads, where it reads it).
  it('is refused before any answer reads it when a municipality points outside its table', () => {
    refusedWhereRead(
      [
        ['a municipality names a state', (a) => (a.municipalityState = Uint8Array.from(a.municipalityState, (v, i) => (i === 1 ? 77 : v)))],
        ['a municipality names a name', (a) => (a.municipalityName = Uint8Array.from(a.municipalityName, (v, i) => (i === 1 ? 99 : v)))],
      ],
      (what) => new RegExp(`is damaged \\((${what}|an index beyond its string table)`),
    );
  });

  // Checked where a code is first read, not at load (format 5): checking every code's indices
  // at load would cost more than the rest of loading. The forged code is refused with the same
  // message; every answer that does not read it is the good file's.
  it('is refused at first use when a code or a settlement points outside its table, and answers the rest as the good one', () => {
    const good = decodeCatalog(fixture, 'good');
    const paths = fixturePaths(good).concat(good.postalCodes().map((cp) => `/query/get_colonia_por_cp/${cp}?token=t`));
    const expected = answers(good, paths);
    const cases: [string, number, (artifact: Artifact) => void][] = [
      ['a code names a city', 3, (a) => (a.codeCity = Uint8Array.from(a.codeCity, (v, i) => (i === 3 ? 200 : v)))],
      ['a code names a municipality', 0, (a) => (a.codeMunicipality = Uint16Array.from(a.codeMunicipality, (v, i) => (i === 0 ? 999 : v)))],
      [
        'a settlement names a name or type',
        0,
        (a) => {
          a.settlements = Uint8Array.from(a.settlements);
          a.settlements[2] = 0xff;
        },
      ],
    ];
    for (const [what, code, change] of cases) {
      const forged = decodeCatalog(forge(change), '/x/forged.msgpack');
      const cp = good.postalCode(code);
      const refused = refusedOrGood(forged, paths, expected, new RegExp(`^/x/forged\\.msgpack: is damaged \\(${what}.*run \`cpmx build\``), what);
      expect(paths.filter((path) => path.includes(cp) && !refused.includes(path)), `${what}: answered`).toEqual([]);
      expect(refused.length, what).toBe(3);
    }
  });

  it('is refused when a column is of another kind (at load) or its counts and lengths do not add up (before any answer reads them)', () => {
    const cases: [string, (artifact: Artifact) => void][] = [
      ['a code names a city: the column is not an unsigned integer column', (a) => (a.codeCity = Float64Array.from(a.codeCity, (v) => v + 0.5) as never)],
      ['a municipality names a state: the column is not an unsigned integer column', (a) => (a.municipalityState = Int8Array.from(a.municipalityState) as never)],
      ['a string table does not match its lengths', (a) => (a.strings.settlements.lengths = Uint8Array.from(a.strings.settlements.lengths, (v, i) => (i === 0 ? v + 1 : v)))],
      ['settlement counts do not add up to the row count', (a) => (a.codeSettlements = Uint16Array.from(a.codeSettlements, (v, i) => (i === 0 ? v + 1 : v)))],
      ['state cities do not add up', (a) => (a.stateCityCounts = Uint8Array.from(a.stateCityCounts, (v, i) => (i === 0 ? v + 1 : v)))],
    ];
    for (const [what, change] of cases.slice(0, 2)) expect(() => decodeCatalog(forge(change), '/x/forged.msgpack'), what).toThrow(new RegExp(`is damaged \\(${what}`));
    refusedWhereRead(cases.slice(2), (what) => new RegExp(`is damaged \\((${what}|a string table does not match its lengths|settlement counts do not add up)`));
  });
});
