/**
 * Format 5 read in place: what loading no longer does at once (decode strings, check every
 * code's indices, walk the trie per lookup) must still give the same answers, fresh each
 * time, and refuse a damaged part where it is first read.
 */
import { readFileSync } from 'node:fs';
import { Packr, Unpackr } from 'msgpackr';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeArtifact, sealPages } from '../../build/write.js';
import { createClient } from '../../src/client/client.js';
import { ArtifactError, decodeCatalog, readArtifact } from '../../src/core/catalog.js';
import { FORMAT_NAME, FORMAT_VERSION } from '../../src/core/format.js';
import { PAYLOAD_AT, SECTIONS, headCheck, readPayload } from '../../src/core/layout.js';
import { answerInfoCp, infoCpJson } from '../../src/core/answers/info-cp.js';
import { answerAsText } from '../../src/core/answers/text.js';
import { parseRequestPath } from '../../src/core/request.js';
import { handle } from '../../src/core/router.js';
import { FIXTURE, buildInto, realCatalogPath, tempDir } from '../helpers.js';

const dir = tempDir();
let fixturePath: string;
let fixture: Buffer;

beforeAll(async () => {
  fixturePath = await buildInto(FIXTURE, dir);
  fixture = readFileSync(fixturePath);
});

describe('answers built from per-code data', () => {
  it('are fresh objects: a caller that changes its answer changes no later one', () => {
    const client = createClient({ token: 'real', dataPath: fixturePath });
    const other = createClient({ token: 'other', dataPath: fixturePath });
    const simplified = client.infoCp('09810', { type: 'simplified' });
    const full = client.infoCp('09810');
    const colonias = client.getColoniaPorCp('09810');
    const expected = JSON.stringify([simplified, full, colonias]);
    expect(simplified.error).toBe(false);
    if (simplified.error || !Array.isArray(full) || colonias.error) throw new Error('09810 is in the fixture');
    simplified.response.asentamiento.push('Inventada');
    simplified.response.asentamiento.reverse();
    simplified.response.municipio = 'Otro';
    full[0]!.response.asentamiento = 'Otra';
    full.pop();
    colonias.response.colonia.length = 0;
    for (const asker of [client, other]) {
      expect(JSON.stringify([asker.infoCp('09810', { type: 'simplified' }), asker.infoCp('09810'), asker.getColoniaPorCp('09810')])).toBe(expected);
    }
    expect(client.infoCp('09810', { type: 'simplified' })).not.toBe(client.infoCp('09810', { type: 'simplified' }));
  });

  it('find every code alike before and after the table of code numbers is made (after 1,000 lookups)', () => {
    const catalog = decodeCatalog(fixture, 'fixture');
    const indices = new Map(catalog.postalCodes().map((cp, i) => [cp, i]));
    const all = Array.from({ length: 100_000 }, (_, n) => String(n).padStart(5, '0'));
    // The first 1,000 walk the trie, the rest read the table; both must agree with the code list.
    expect(all.map((cp) => catalog.codeIndex(cp))).toEqual(all.map((cp) => indices.get(cp) ?? -1));
    const codes = [...indices.keys()].reverse();
    expect(codes.map((cp) => catalog.codeIndex(cp))).toEqual(codes.map((cp) => indices.get(cp)));
    for (const odd of ['0981a', '09 10', '098100'.slice(0, 4), '\u0660\u0669810']) expect(catalog.codeIndex(odd.padEnd(5, ':'))).toBe(-1);
  });

  it("find a code by its entry (info_cp's path) as by its index, before and after the tables by number are made, and nothing for what is not 5 ASCII digits", () => {
    const catalog = decodeCatalog(fixture, 'fixture');
    // Before any table: the trie walk reads `1 << digit`, where `P` (80 - 48 = 32) would read as 0.
    for (const odd of ['P9810', '`9810', '09810 ', ' 09810', '0981', '098100', '０9810', '']) {
      expect(catalog.codeIndex(odd), odd).toBe(-1);
      expect(catalog.postalCodeEntry(odd), odd).toBeUndefined();
    }
    const codes = catalog.postalCodes();
    const all = Array.from({ length: 100_000 }, (_, n) => String(n).padStart(5, '0'));
    for (const round of ['walking the trie', 'from the tables by number']) {
      for (const cp of round === 'walking the trie' ? codes.slice(0, 200) : [...codes, ...all]) {
        const index = catalog.codeIndex(cp);
        const entry = catalog.postalCodeEntry(cp);
        if (index < 0 ? entry !== undefined : entry !== catalog.codeEntry(index)) expect(entry, `${cp} ${round}`).toBe(index < 0 ? undefined : catalog.codeEntry(index));
      }
      // The same code asked again gives the same kept entry.
      expect(catalog.postalCodeEntry(codes[0]!)).toBe(catalog.codeEntry(0));
    }
    for (const odd of ['P9810', '09810 ', '0981:']) expect(catalog.postalCodeEntry(odd)).toBeUndefined();
  });

  it("answer the library's infoCp as its router does: every code, unknown codes (105), malformed ones (101, 102, 104), before and after the tables by number", () => {
    const client = createClient({ token: 'real', dataPath: fixturePath });
    const codes = decodeCatalog(fixture, 'fixture').postalCodes().slice();
    const odd = ['00000', '99999', '0981', '098100', 'P9810', '0981a', '０9810', '09 10', ' 0981'];
    // Enough lookups to make the tables by number, then every query again.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; round === 0 && i < 1_100; i++) client.infoCp(codes[i % codes.length]!);
      for (const cp of [...codes, ...odd]) {
        for (const type of [undefined, 'simplified'] as const) {
          const body = client.infoCp(cp, { type });
          const routed = client.query(`/query/info_cp/${encodeURIComponent(cp)}${type ? '?type=simplified' : ''}`).body;
          if (JSON.stringify(body) !== JSON.stringify(routed)) expect(body, `${cp} ${type} round ${round}`).toEqual(routed);
        }
      }
    }
    expect(client.infoCp('00000')).toEqual({ error: true, code_error: 105, error_message: expect.any(String), response: null });
    expect(client.infoCp('0981a', { type: 'simplified' })).toMatchObject({ error: true, code_error: 104 });
  });
});

describe('info_cp as JSON text (for adapters that write bytes)', () => {
  it('is exactly JSON.stringify of the answer, for every code of the fixture and of the real catalog, simplified or not', async () => {
    const real = readFileSync(await buildInto(realCatalogPath(), dir, 'real.msgpack'));
    for (const bytes of [fixture, real]) {
      const catalog = decodeCatalog(bytes, 'catalog');
      for (const cp of catalog.postalCodes()) {
        for (const simplified of [true, false]) {
          const json = infoCpJson(catalog, cp, simplified);
          // Asked twice: the second answer comes from the kept, quoted entry.
          expect(infoCpJson(catalog, cp, simplified)).toBe(json);
          if (json !== JSON.stringify(answerInfoCp(catalog, cp, simplified))) expect(json, cp).toBe(JSON.stringify(answerInfoCp(catalog, cp, simplified)));
        }
      }
      expect(infoCpJson(catalog, '00000', true)).toBeUndefined();
    }
    expect(infoCpJson(decodeCatalog(fixture, 'fixture'), '09810', false)).toContain('\\"');
  }, 60_000);

  it('is what the router gives an adapter that writes bytes: the same status, credit and text, the body object made only when read', () => {
    const catalog = decodeCatalog(fixture, 'fixture');
    const context = { catalog: () => catalog };
    for (const path of [...catalog.postalCodes().flatMap((cp) => [`/query/info_cp/${cp}?token=t`, `/query/info_cp/${cp}?token=t&type=simplified`]), '/query/info_cp/00000?token=t', '/query/info_cp/0981?token=t', '/query/info_cp/09810?token=pruebas', '/query/get_estados?token=t']) {
      const plain = handle(parseRequestPath(path), context);
      const asText = handle(parseRequestPath(path), context, answerAsText);
      expect({ status: asText.status, credit: asText.credit, token: asText.token }, path).toEqual({ status: plain.status, credit: plain.credit, token: plain.token });
      expect(asText.text === undefined, path).toBe(plain.status !== 200 || !path.includes('info_cp') || path.includes('pruebas'));
      if (asText.text) {
        // No body object yet: what the text gives is all a server holding no bytes for it needs.
        expect(Object.getOwnPropertyNames(asText), path).not.toContain('body');
        expect(asText.text(), path).toBe(JSON.stringify(plain.body));
      }
      expect(asText.body, path).toEqual(plain.body);
    }
  });
});

describe('the format-6 file', () => {
  it('is a MessagePack map naming its format and version, so any MessagePack reader (an older cpmx) can say which it is', () => {
    const envelopeOnly = new Unpackr({ useRecords: false }).unpack(fixture) as Record<string, unknown>;
    expect(Object.keys(envelopeOnly)).toEqual(['format', 'version', 'check', 'payload']);
    expect(envelopeOnly).toMatchObject({ format: FORMAT_NAME, version: FORMAT_VERSION, check: headCheck(new Uint8Array(fixture), fixture.readUInt32LE(PAYLOAD_AT)) });
    expect((envelopeOnly.payload as Uint8Array).length).toBe(fixture.length - PAYLOAD_AT);
  });

  it('refuses a MessagePack artifact of formats 4 and 5 (the ones before) with the rebuild message', () => {
    for (const version of [4, 5]) {
      const old = new Packr({ useRecords: false, moreTypes: true }).pack({ format: FORMAT_NAME, version, crc32: 1, payload: new Uint8Array(64) });
      expect(() => decodeCatalog(old, `/x/v${version}.msgpack`)).toThrow(
        `/x/v${version}.msgpack: is an artifact of format version ${version}, and this cpmx reads version ${FORMAT_VERSION}; run \`cpmx build\``,
      );
    }
  });

  it('gives back the model it was built from, and is built again byte for byte from it', () => {
    expect(encodeArtifact(readArtifact(fixture)).equals(fixture)).toBe(true);
  });

  /** The fixture with one value of a section changed and its checksum made right again: a forged file. */
  function forgeSection(name: string, change: (column: Uint8Array | Uint16Array | Uint32Array) => void): Buffer {
    const copy = Buffer.from(fixture);
    const column = readPayload(copy).sections[SECTIONS.indexOf(name)]!.column!;
    change(column);
    return sealPages(copy);
  }

  it('refuses a string table whose block offsets do not fit its lengths where the entry is first read', () => {
    // Settlement names 0 to 15 and 16 to 31 are two blocks; moving the offset between them breaks both.
    const forged = decodeCatalog(
      forgeSection('settlements.starts', (starts) => (starts[1] = starts[1]! + 1)),
      '/x/forged.msgpack',
    );
    expect(forged.stateNames()).toEqual(decodeCatalog(fixture, 'good').stateNames());
    const names = readArtifact(fixture).strings.settlements.lengths.length;
    expect(names).toBeGreaterThan(16);
    expect(() => forged.settlementNameAt(0)).toThrow(/^\/x\/forged\.msgpack: is damaged \(a string table does not match its lengths\); run `cpmx build`/);
    expect(() => forged.settlementNameAt(16)).toThrow(ArtifactError);
    expect(() => forged.settlementNameAt(16)).toThrow(/^\/x\/forged\.msgpack: is damaged \(a string table does not match its lengths\); run `cpmx build`/);
    expect(() => forged.settlementNameAt(names)).toThrow(/is damaged \(an index beyond its string table/);
  });

  it('refuses a table whose total does not fit its bytes at its first read, and a section outside the file at load', () => {
    const total = decodeCatalog(forgeSection('cities.starts', (starts) => (starts[starts.length - 1] = starts[starts.length - 1]! + 1)), '/x/f.msgpack');
    expect(() => total.cityOf(0)).toThrow(/^\/x\/f\.msgpack: is damaged \(a string table does not match its lengths\)/);
    const outside = Buffer.from(fixture);
    const table = readPayload(outside);
    // The section table follows the header: find the codeCity entry and point it past the end.
    // A column is a view of the file's bytes: its offset in the file is its offset in their
    // memory less the file's own (Node 24 puts a copy of up to 32 KB in its shared 64 KB pool).
    const codeCity = table.sections[SECTIONS.indexOf('codeCity')]!;
    const at = outside.indexOf(Buffer.from(new Uint32Array([codeCity.kind, codeCity.column!.byteOffset - outside.byteOffset]).buffer));
    expect(at).toBeGreaterThan(PAYLOAD_AT);
    outside.writeUInt32LE(outside.length, at + 4);
    expect(() => decodeCatalog(sealPages(outside), '/x/f.msgpack')).toThrow(/is damaged \(the section codeCity lies outside the file's pages\)/);
  });
});
