/**
 * Issue 22, item 10: a hostile catalog within the build's size bounds made each request cost
 * 243 MB (one code with tens of thousands of long settlement names), and the library's name
 * caches kept 4,096 names of any length (1 GB). Now the build bounds the catalog's shape
 * (SHAPE_LIMITS: names, settlements per code and per municipality name, cities per state),
 * so the largest answer of a catalog at every bound is a few megabytes; and a name longer
 * than any catalog name is never remembered.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildArtifact } from '../../build/build.js';
import { CatalogError } from '../../build/errors.js';
import { SHAPE_LIMITS } from '../../build/limits.js';
import { createClient } from '../../src/index.js';
import { BUILD_TIME, root, tempDir } from '../helpers.js';
import { HEADER, NOTICE } from '../support/catalogs.js';

const dir = tempDir();
let count = 0;

interface Row {
  cp: string;
  settlement: string;
  municipality?: string;
  state?: string;
  stateKey?: string;
  municipalityKey?: string;
  city?: string;
}

/** A catalog in the official format (Latin-1, CRLF, the fixture's notice and header). */
function catalog(rows: Iterable<Row>): string {
  const lines = [NOTICE, HEADER];
  for (const { cp, settlement, municipality = 'Iztapalapa', state = 'Ciudad de México', stateKey = '09', municipalityKey = '007', city = 'Ciudad de México' } of rows) {
    lines.push([cp, settlement, 'Colonia', municipality, state, city, cp, stateKey, cp, '', '09', municipalityKey, '0001', 'Urbano', '01'].join('|'));
  }
  const path = join(dir, `shape-${++count}.txt`);
  writeFileSync(path, Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
  return path;
}

async function build(source: string): Promise<string | CatalogError> {
  const out = join(dir, `shape-${++count}.msgpack`);
  try {
    await buildArtifact({ source, out, builtAt: BUILD_TIME });
    return out;
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
}

function* times<T>(n: number, row: (i: number) => T): Generator<T> {
  for (let i = 0; i < n; i++) yield row(i);
}

/** A distinct name of `length` characters. */
const named = (i: number, length: number) => `${i} `.padEnd(length, 'x');

describe('the build refuses a catalog past its shape bounds', () => {
  const { maxNameChars, maxSettlementsPerCode, maxSettlementsPerMunicipalityName, maxCitiesPerState } = SHAPE_LIMITS;

  it('a name longer than the bound', async () => {
    const error = await build(catalog([{ cp: '09810', settlement: named(1, maxNameChars + 1) }]));
    expect(String(error)).toContain(`d_asenta is ${maxNameChars + 1} characters long, more than a name may be (${maxNameChars})`);
    expect(String(await build(catalog([{ cp: '09810', settlement: 'A', city: named(1, maxNameChars + 1) }])))).toContain('d_ciudad is');
  });

  it('a postal code with more settlements than the bound', async () => {
    const error = await build(catalog(times(maxSettlementsPerCode + 1, (i) => ({ cp: '09810', settlement: named(i, 20) }))));
    expect(error).toBeInstanceOf(CatalogError);
    expect(String(error)).toContain(`postal code 09810 has more than ${maxSettlementsPerCode} settlements`);
  });

  it('municipalities of one name (in every state together) with more settlements than the bound', async () => {
    // Spread over codes and two states, as a lookup by municipality name gathers them.
    const rows = times(maxSettlementsPerMunicipalityName + 1, (i) => ({
      cp: String(10000 + Math.floor(i / 1000)),
      settlement: named(i, 20),
      municipality: i % 2 ? 'Juárez' : 'JUAREZ',
      state: i % 2 ? 'Chihuahua' : 'Nuevo León',
      stateKey: i % 2 ? '08' : '19',
    }));
    expect(String(await build(catalog(rows)))).toContain(`have more than ${maxSettlementsPerMunicipalityName} settlements together`);
  });

  it('a state with more cities than the bound', async () => {
    const rows = times(maxCitiesPerState + 1, (i) => ({ cp: String(10000 + i), settlement: 'Centro', city: named(i, 20) }));
    expect(String(await build(catalog(rows)))).toContain(`c_estado 09 has more than ${maxCitiesPerState} cities`);
  });
});

describe('a catalog at every bound', () => {
  it('builds, and its largest answers are a few megabytes, not hundreds', async () => {
    const { maxNameChars, maxSettlementsPerCode, maxSettlementsPerMunicipalityName } = SHAPE_LIMITS;
    const long = (i: number) => named(i, maxNameChars);
    const municipality = 'M'.repeat(maxNameChars);
    const rows = times(maxSettlementsPerMunicipalityName, (i) => ({
      cp: String(10000 + Math.floor(i / maxSettlementsPerCode)),
      settlement: long(i),
      municipality,
      state: 'S'.repeat(maxNameChars),
      city: 'C'.repeat(maxNameChars),
    }));
    const out = await build(catalog(rows));
    expect(typeof out, String(out)).toBe('string');
    const client = createClient({ token: 'shape', dataPath: out as string });
    const sizes = [
      client.infoCp('10000'),
      client.getColoniaPorCp('10000'),
      client.getColoniaPorMunicipio(municipality),
      client.getCpPorMunicipio(municipality),
      client.searchCpAdvanced('S'.repeat(maxNameChars), { colonia: '1', limit: '100000' } as never),
    ].map((body) => JSON.stringify(body).length);
    expect(JSON.parse(JSON.stringify(client.infoCp('10000'))).length).toBe(maxSettlementsPerCode);
    expect(Math.max(...sizes)).toBeGreaterThan(1_000_000);
    expect(Math.max(...sizes)).toBeLessThan(4 * 1024 * 1024);
  });
});

describe("the library's name caches", () => {
  it('keep no name longer than a catalog name: 128 distinct names of 256 K characters leave the heap as it was', () => {
    const data = join(root, 'data', 'cpmx.msgpack');
    const script = `
      const { createClient } = await import(${JSON.stringify(join(root, 'dist', 'cpmx.js'))});
      const client = createClient({ token: 'cache', dataPath: ${JSON.stringify(data)} });
      client.getMunicipioPorEstado('Jalisco');
      client.getCpPorMunicipio('Zapopan');
      globalThis.gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 128; i++) {
        // A character past Latin-1 first: folded by Unicode's own (native) path, quickly.
        const name = ('\\u0101' + i).padEnd(256 * 1024, 'a');
        client.getMunicipioPorEstado(name);
        client.getCpPorMunicipio(name);
      }
      globalThis.gc();
      process.stdout.write(String(process.memoryUsage().heapUsed - before));`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    // Kept, they would be 128 MB (two-byte strings, in two caches).
    expect(Number(run.stdout)).toBeLessThan(16 * 1024 * 1024);
  });

  it('keep nothing of the text a name was cut from: 64 names sliced from texts of 1 MB leave the heap as it was', () => {
    // A field cut from a record is a slice of its whole range's text: a kept slice would keep
    // that text alive (V8 keeps slices of 13 characters or more as views of their parent).
    const data = join(root, 'data', 'cpmx.msgpack');
    const script = `
      const { createClient } = await import(${JSON.stringify(join(root, 'dist', 'cpmx.js'))});
      const { validateAddress } = await import(${JSON.stringify(join(root, 'dist', 'validate.js'))});
      const client = createClient({ token: 'cache', dataPath: ${JSON.stringify(data)} });
      validateAddress(client, { cp: '44100', colonia: 'Centro', municipio: 'Zapopan', estado: 'N.L.' });
      client.getMunicipioPorEstado('Jalisco');
      globalThis.gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 64; i++) {
        const municipio = 'Municipio sin nombre ' + i;
        const estado = 'Estado sin nombre ' + i;
        const text = (municipio + estado).padEnd(1024 * 1024, 'x');
        const record = { cp: '44100', colonia: 'Centro', municipio: text.slice(0, municipio.length), estado: text.slice(municipio.length, municipio.length + estado.length) };
        validateAddress(client, record);
        client.getMunicipioPorEstado(record.estado);
        client.getCpPorMunicipio(record.municipio);
      }
      globalThis.gc();
      process.stdout.write(String(process.memoryUsage().heapUsed - before));`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    // Kept, they would be 64 MB.
    expect(Number(run.stdout)).toBeLessThan(16 * 1024 * 1024);
  });
});
