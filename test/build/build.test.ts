/**
 * The compiler on fixture catalogs: every accepted form of the source, every refusal with
 * its file and line, the atomic write, determinism and the artifact round trip.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { Packr } from 'msgpackr';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact, findCatalog } from '../../build/build.js';
import { CatalogError } from '../../build/errors.js';
import { CatalogModel } from '../../build/model.js';
import { provenance } from '../../build/provenance.js';
import { CatalogReader } from '../../build/reader.js';
import { encodeArtifact } from '../../build/write.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { createClient } from '../../src/client/client.js';
import { decodeCatalog, readArtifact } from '../../src/core/catalog.js';
import { FORMAT_VERSION, compactUints, stringTableText, toStringTable, type Artifact } from '../../src/core/format.js';
import { FIXTURE, buildInto, tempDir, ok } from '../helpers.js';

const dir = tempDir();
const latin1 = readFileSync(FIXTURE);
const text = latin1.toString('latin1');
const lines = text.split('\r\n');

function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A fixture variant with line `n` (1-based) replaced. */
function withLine(n: number, replacement: string): string {
  const copy = [...lines];
  copy[n - 1] = replacement;
  return copy.join('\r\n');
}

async function refusal(source: string, out = join(dir, 'refused.msgpack')): Promise<CatalogError> {
  const error = await buildArtifact({ source, out }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogError);
  expect(existsSync(out)).toBe(false);
  return error as CatalogError;
}

/** Everything a client answers for the fixture's codes, to compare builds by content. */
function answersOf(dataPath: string) {
  const client = createClient({ token: 't', dataPath });
  const codes: string[] = [];
  const all: unknown[] = [client.getEstados()];
  for (let d = 0; d <= 9; d++) codes.push(...ok(client.searchCp(String(d))).response.cp);
  for (const cp of codes) all.push(client.infoCp(cp), client.infoCp(cp, { type: 'simplified' }));
  for (const estado of ok(client.getEstados()).response.estado) all.push(client.getMunicipioPorEstado(estado));
  return { codes, all };
}

let reference: ReturnType<typeof answersOf>;
let referencePath: string;

beforeAll(async () => {
  referencePath = await buildInto(FIXTURE, dir, 'reference.msgpack');
  reference = answersOf(referencePath);
});

describe('accepted sources', () => {
  it('reads the Latin-1 CRLF fixture with its notice line', () => {
    const catalog = loadCatalog(referencePath);
    expect(reference.codes).toHaveLength(15);
    expect(catalog.header).toMatchObject({ rows: 22, codes: 15, states: 6, municipalities: 12, version: FORMAT_VERSION, format: 'cpmx-catalog' });
    expect(catalog.header.source).toMatchObject({ file: 'catalog-mini.txt', encoding: 'latin1', bytes: latin1.length });
    expect(catalog.header.notice).toMatch(/^El Catálogo Nacional de Códigos Postales, es elaborado por Correos de México/);
  });

  it('detects a UTF-8 re-save (with or without BOM, CRLF or LF) by content, not by name, with the same answers', async () => {
    const utf8 = Buffer.from(text, 'utf8');
    const variants = {
      'resave.latin1.txt': utf8,
      'resave-bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]),
      'resave-lf.txt': Buffer.from(text.replaceAll('\r\n', '\n'), 'utf8'),
      'latin1-lf.utf8.txt': Buffer.from(text.replaceAll('\r\n', '\n'), 'latin1'),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const out = await buildInto(write(name, bytes), dir, `${name}.msgpack`);
      const catalog = loadCatalog(out);
      expect(catalog.header.source.encoding, name).toBe(name.startsWith('latin1') ? 'latin1' : 'utf8');
      expect(catalog.header.notice, name).toBe(loadCatalog(referencePath).header.notice);
      expect(answersOf(out), name).toEqual(reference);
    }
  });

  it('reads the catalog out of a zip, by member name, also inside a folder, whatever the zip is called', async () => {
    const official = write('CPdescargatxt.zip', zipSync({ 'CPdescarga.txt': latin1 }));
    const nested = write('download.bin', zipSync({ 'readme.txt': strToU8('hola'), 'sepomex/CPdescarga.txt': latin1 }));
    for (const zip of [official, nested]) {
      const out = await buildInto(zip, dir, `${zip.split('/').pop()}.msgpack`);
      expect(answersOf(out)).toEqual(reference);
      expect(loadCatalog(out).header.source.sha256).toBe(
        (await import('node:crypto')).createHash('sha256').update(readFileSync(zip)).digest('hex'),
      );
    }
  });

  it('accepts a header on line 1 when there is no notice line', async () => {
    const out = await buildInto(write('no-notice.txt', Buffer.from(lines.slice(1).join('\r\n'), 'latin1')), dir, 'no-notice.msgpack');
    expect(answersOf(out)).toEqual(reference);
    expect(loadCatalog(out).header.notice).toBe('');
  });

  it('reports progress', async () => {
    // Spread over codes and municipalities, as a real catalog is (SHAPE_LIMITS bounds each).
    const row = (i: number) => {
      const fields = lines[2]!.replace('San Ángel', `San Ángel ${i}`).split('|');
      fields[0] = String(10000 + Math.floor(i / 10));
      fields[3] = `Municipio ${i % 4}`;
      fields[11] = String(100 + (i % 4));
      return fields.join('|');
    };
    const big = [lines[0], lines[1], ...Array.from({ length: 20_001 }, (_, i) => row(i))].join('\r\n');
    const seen: number[] = [];
    await buildArtifact({ source: write('big.txt', Buffer.from(big, 'latin1')), out: join(dir, 'big.msgpack'), onProgress: (rows) => seen.push(rows) });
    expect(seen).toEqual([10_000, 20_000]);
  });
});

describe('refusals name the file, the line and the reason, and write nothing', () => {
  it('missing file or a directory', async () => {
    expect((await refusal(join(dir, 'absent.txt'))).message).toBe(`${join(dir, 'absent.txt')}: file not found`);
    expect((await refusal(dir)).message).toMatch(/is a directory/);
  });

  it('empty file, and a header with no rows', async () => {
    expect((await refusal(write('empty.txt', ''))).message).toBe('empty.txt: the file is empty');
    expect((await refusal(write('header-only.txt', Buffer.from(lines.slice(0, 2).join('\r\n'), 'latin1')))).message).toBe(
      'header-only.txt: has a header but no data rows',
    );
  });

  it('missing header', async () => {
    const error = await refusal(write('no-header.txt', Buffer.from(withLine(2, lines[3]!), 'latin1')));
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/^no-header\.txt, line 2: missing header: expected a line starting "d_codigo\|d_asenta\|"/);
    expect((await refusal(write('notice-only.txt', Buffer.from(lines[0]!, 'latin1')))).message).toMatch(/missing header/);
  });

  it('wrong field count', async () => {
    const error = await refusal(write('short-row.txt', Buffer.from(withLine(7, lines[6]!.split('|').slice(0, 14).join('|')), 'latin1')));
    expect(error.message).toBe('short-row.txt, line 7: expected 15 fields separated by "|", found 14');
    const extra = await refusal(write('long-row.txt', Buffer.from(withLine(9, `${lines[8]}|x`), 'latin1')));
    expect(extra.message).toBe('long-row.txt, line 9: expected 15 fields separated by "|", found 16');
  });

  it('a code that is not 5 digits', async () => {
    for (const bad of ['0981', '098100', '09a10', '']) {
      const error = await refusal(write(`bad-code-${bad}.txt`, Buffer.from(withLine(5, lines[4]!.replace(/^\d{5}/, bad)), 'latin1')));
      expect(error.message).toBe(`bad-code-${bad}.txt, line 5: d_codigo "${bad}" is not a 5-digit postal code`);
    }
  });

  it('bad keys, empty names, and a key carrying two names', async () => {
    expect((await refusal(write('bad-state-key.txt', Buffer.from(withLine(3, lines[2]!.replace('|09|01001|', '|9x|01001|')), 'latin1')))).message).toBe(
      'bad-state-key.txt, line 3: c_estado "9x" is not a number of up to 2 digits',
    );
    expect((await refusal(write('empty-name.txt', Buffer.from(withLine(4, lines[3]!.replace('Los Alpes', '  ')), 'latin1')))).message).toBe(
      'empty-name.txt, line 4: d_asenta is empty for postal code 01010',
    );
    expect((await refusal(write('two-names.txt', Buffer.from(withLine(4, lines[3]!.replace('|Ciudad de México|Ciudad de México |', '|CDMX|Ciudad de México |')), 'latin1')))).message).toBe(
      'two-names.txt, line 4: c_estado 09 is named "CDMX" here but "Ciudad de México" on line 3',
    );
  });

  it('a zip without CPdescarga.txt, a broken zip, and UTF-8 that turns invalid', async () => {
    expect((await refusal(write('other.zip', zipSync({ 'otro.txt': latin1, 'LEEME.txt': strToU8('hola') })))).message).toBe(
      'other.zip: the zip holds no CPdescarga.txt; it holds "otro.txt", "LEEME.txt"',
    );
    const zip = zipSync({ 'CPdescarga.txt': latin1 });
    expect((await refusal(write('cut.zip', zip.subarray(0, 200)))).message).toMatch(/^cut\.zip: /);
    const mixed = Buffer.concat([Buffer.from(`${lines.slice(0, 5).join('\r\n')}\r\n`, 'utf8'), Buffer.from(lines.slice(5).join('\r\n'), 'latin1')]);
    expect((await refusal(write('mixed.txt', mixed))).message).toMatch(/^mixed\.txt, line \d+: not valid UTF-8/);
  });

  it('a refused catalog leaves the existing artifact as it was, and no temporary file', async () => {
    const sub = join(dir, 'keep');
    mkdirSync(sub);
    const out = await buildInto(FIXTURE, sub);
    const before = readFileSync(out);
    const bad = write('bad-for-keep.txt', Buffer.from(withLine(6, '0981|x'), 'latin1'));
    await expect(buildArtifact({ source: bad, out })).rejects.toThrow(/line 6/);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(sub)).toEqual(['cpmx.msgpack']);
  });
});

describe('the artifact', () => {
  it('is byte-identical for the same input', async () => {
    const again = await buildInto(FIXTURE, dir, 'again.msgpack');
    expect(readFileSync(again).equals(readFileSync(referencePath))).toBe(true);
  });

  it('round-trips every field through the file, typed arrays keeping their type', async () => {
    const reader = new CatalogReader(FIXTURE);
    const model = new CatalogModel(reader.file);
    for await (const row of reader.rows()) model.add(row);
    const artifact = model.toArtifact(provenance([reader.info()], new Date()));
    const decoded = readArtifact(encodeArtifact(artifact));
    expect(Object.keys(decoded)).toEqual(Object.keys(artifact));
    for (const key of Object.keys(artifact) as (keyof Artifact)[]) {
      expect(decoded[key], key).toStrictEqual(artifact[key]);
      const value = artifact[key];
      if (ArrayBuffer.isView(value)) expect(decoded[key]!.constructor, key).toBe(value.constructor);
    }
    for (const [kind, table] of Object.entries(artifact.strings)) {
      const back = decoded.strings[kind as keyof Artifact['strings']];
      expect(stringTableText(back), kind).toBe(stringTableText(table));
      expect(back.latin1 ? 'latin1' : 'text', kind).toBe(table.latin1 ? 'latin1' : 'text');
      expect(back.lengths.constructor, kind).toBe(table.lengths.constructor);
      expect(Array.from(back.lengths), kind).toEqual(Array.from(table.lengths));
    }
    expect(stringTableText(decoded.strings.settlements)).toContain('Chalet "La Cumbre"');
    expect(stringTableText(decoded.strings.cities).startsWith('Ciudad de México')).toBe(true);
    expect(decoded.strings.settlements.latin1).toBeInstanceOf(Uint8Array);
  });

  it('stores a table as Latin-1 bytes when every character fits, else as text; the file holds it as UTF-8', () => {
    const narrow = toStringTable(['Peñón', 'Ü']);
    expect(narrow.latin1).toBeInstanceOf(Uint8Array);
    expect(narrow.text).toBeUndefined();
    const wide = toStringTable(['Peñón', 'Ŝ', '😀']);
    expect(wide.text).toBe('PeñónŜ😀');
    const artifact = readArtifact(readFileSync(referencePath));
    const names = Array.from({ length: artifact.strings.settlements.lengths.length }, (_, i) => ['Peñón', 'Ŝ', '😀'][i % 3]!);
    const bytes = encodeArtifact({ ...artifact, strings: { ...artifact.strings, settlements: toStringTable(names) } });
    expect(stringTableText(readArtifact(bytes).strings.settlements)).toBe(names.join(''));
    const catalog = decodeCatalog(bytes, 'wide');
    expect(names.map((_, i) => catalog.settlementNameAt(i))).toEqual(names);
  });

  it('keeps integer columns of every width intact, viewed in place at aligned offsets', () => {
    const artifact = readArtifact(readFileSync(referencePath));
    const columns = { stateKeys: compactUints([1, 200]), municipalityKey: compactUints([1, 60_000]), codeCity: compactUints([1, 4_000_000_000]) };
    expect(Object.values(columns).map((c) => c.constructor.name)).toEqual(['Uint8Array', 'Uint16Array', 'Uint32Array']);
    const back = readArtifact(encodeArtifact({ ...artifact, ...columns }));
    expect({ stateKeys: back.stateKeys, municipalityKey: back.municipalityKey, codeCity: back.codeCity }).toStrictEqual(columns);
    // Bytes that start at an odd place in their buffer are read as well (copied once, to align the columns).
    const good = readFileSync(referencePath);
    const shifted = new Uint8Array(good.length + 1).subarray(1);
    shifted.set(good);
    expect(decodeCatalog(shifted, 'shifted').settlementNamesOf(0)).toEqual(decodeCatalog(good, 'good').settlementNamesOf(0));
  });

  it('refuses to load a truncated, foreign or other-version file, naming its path', async () => {
    const bytes = readFileSync(referencePath);
    expect(() => decodeCatalog(bytes.subarray(0, bytes.length - 100), '/x/cut.msgpack')).toThrow(
      '/x/cut.msgpack: is truncated or not a cpmx artifact; run `cpmx build` to compile the catalog',
    );
    expect(() => decodeCatalog(Buffer.from('{"hello": 1}'), '/x/foreign.json')).toThrow(/^\/x\/foreign\.json: is (truncated or )?not a cpmx artifact/);
    expect(() => decodeCatalog(new Packr({ useRecords: false }).pack({ hello: 1 }), '/x/foreign.msgpack')).toThrow('/x/foreign.msgpack: is not a cpmx artifact');
    const artifact = readArtifact(bytes);
    expect(() => decodeCatalog(encodeArtifact({ ...artifact, header: { ...artifact.header, version: 99 } }), '/x/v99.msgpack')).toThrow(
      `/x/v99.msgpack: is an artifact of format version 99, and this cpmx reads version ${FORMAT_VERSION}; run \`cpmx build\``,
    );
    // A trie cut short is refused where the trie is first read whole (a code's lookup reads only its own nodes, and checks its result).
    const cut = decodeCatalog(encodeArtifact({ ...artifact, trie: artifact.trie.subarray(0, 5) }), '/x/damaged.msgpack');
    expect(() => cut.codesStartingWith('0')).toThrow(/^\/x\/damaged\.msgpack: is damaged \(trie is truncated\)/);
    expect(() => loadCatalog(join(dir, 'nothing-here.msgpack'))).toThrow(/nothing-here\.msgpack: no artifact here; run `cpmx build`/);
    expect(() => createClient({ token: 'real', dataPath: join(dir, 'nothing-here.msgpack') })).toThrow(/run `cpmx build`/);
  });
});

describe('finding the catalog', () => {
  it('prefers --source, then CPMX_CATALOG, then the defaults', () => {
    expect(findCatalog('a.txt', { CPMX_CATALOG: 'b.txt' })).toMatchObject({ from: '--source' });
    expect(findCatalog(undefined, { CPMX_CATALOG: 'b.txt' })).toMatchObject({ from: 'CPMX_CATALOG' });
    const [absent, present] = [join(dir, 'absent', 'CPdescarga.txt'), join(dir, 'present.zip')];
    writeFileSync(present, 'PK');
    expect(findCatalog(undefined, {}, [absent, present])).toEqual({ path: present, paths: [present], from: 'default' });
    expect(findCatalog(['a.txt', 'b.zip', '-'], {})).toEqual({ path: resolve('a.txt'), paths: [resolve('a.txt'), resolve('b.zip'), '-'], from: '--source' });
    expect(findCatalog(undefined, {}, [absent])).toBeUndefined();
  });
});
