/**
 * The parts of validation whose rules are easy to get subtly wrong: cutting ranges at record
 * ends whatever the chunks (quotes, CR LF split across chunks, quotes left open), and the
 * column where a line stops being JSON.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { jsonErrorColumn } from '../../src/validate/json-error.js';
import { RecordCutter, type Piece } from '../../src/validate/ranges.js';
import { readCsv, splitQuoted, type ParseCsv, type RecordVisitor } from '../../src/validate/read.js';

/** A small seeded generator (the same cases every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const WIDTH = 3;

/**
 * Random CSV text: plain, quoted, multi-line and doubled-quote fields; broken ones too unless
 * `wellFormed`. `starts` gets the line each record starts on.
 */
function randomCsv(next: () => number, records: number, wellFormed: boolean, starts: number[] = []): Buffer {
  const pick = <T>(options: readonly T[]) => options[Math.floor(next() * options.length)]!;
  let text = '';
  for (let r = 0; r < records; r++) {
    starts.push(1 + (text.match(/\r\n|\r|\n/g)?.length ?? 0));
    const fields = Array.from({ length: WIDTH }, () => {
      const roll = next();
      if (roll < 0.6) return pick(['a', 'bb', '', 'x y', 'ñ', 'c"d']);
      if (roll < 0.9) return `"${pick(['q', 'a,b', 'l1\nl2', 'l1\r\nl2', 'x""y', ''])}"`;
      return wellFormed ? '"z"' : pick(['"open', '"a"b', 'x\r', '"']);
    });
    text += fields.join(',') + pick(wellFormed ? ['\n', '\r\n'] : ['\n', '\r\n', '\r', '\n\n']);
  }
  return Buffer.from(text);
}

/** Cuts `bytes` fed in chunks of random sizes below `most`. */
function cut(bytes: Buffer, next: () => number, most: number, maxRecordBytes: number): Piece[] {
  const cutter = new RecordCutter({ delimiter: 44, maxRecordBytes, rangeBytes: 16, line: 1 });
  const pieces: Piece[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * most);
    pieces.push(...cutter.push(bytes.subarray(at, at + size)));
    at += size;
  }
  return [...pieces, ...cutter.finish()];
}

/** What the reader makes of the pieces: each record's line and fields, or its reason. */
function records(pieces: Piece[], maxRecordBytes: number): string[] {
  const seen: string[] = [];
  const visitor: RecordVisitor = {
    csv: (line, values, fields) => seen.push(`${line} ${JSON.stringify(fields ?? values.slice(0, WIDTH))}`),
    json: () => {},
    unreadable: (line, reason) => seen.push(`${line} ! ${reason}`),
    blank: () => {},
  };
  const plan = { format: 'csv' as const, delimiter: ',', width: WIDTH, columns: [0, 1, 2, -1, -1] as [number, number, number, number, number], maxRecordBytes, utf8: true };
  for (const piece of pieces) {
    if (piece.kind === 'overlong') seen.push(`${piece.line} ! overlong`);
    else readCsv(Buffer.from(piece.bytes).toString('utf8'), piece.line, plan, parse as ParseCsv, visitor);
  }
  return seen;
}

describe('cutting ranges of whole records', () => {
  it('gives the same records however the input is chunked, broken quotes and all', () => {
    const next = random(13);
    for (let round = 0; round < 600; round++) {
      const wellFormed = round % 2 === 0;
      const max = wellFormed ? 1 << 20 : 48;
      const bytes = randomCsv(next, 1 + Math.floor(next() * 30), wellFormed);
      const whole = records(cut(bytes, next, bytes.length + 1, max), max);
      const chunked = records(cut(bytes, next, 1 + Math.floor(next() * 9), max), max);
      expect(chunked, JSON.stringify(bytes.toString())).toEqual(whole);
    }
  });

  it('reads well-formed CSV as csv-parse does, record by record, with each record’s first line', () => {
    const next = random(29);
    for (let round = 0; round < 300; round++) {
      const starts: number[] = [];
      const bytes = randomCsv(next, 1 + Math.floor(next() * 30), true, starts);
      const ours = records(cut(bytes, next, 1 + Math.floor(next() * 64), 1 << 20), 1 << 20);
      const theirs = parse(bytes, { relax_quotes: true, relax_column_count: true, record_delimiter: ['\r\n', '\n'] }) as string[][];
      const expected = theirs.map((record, i) => `${starts[i]} ${JSON.stringify(record)}`);
      expect(ours, JSON.stringify(bytes.toString())).toEqual(expected);
    }
  });

  it('ends a quote left open with its own line, and goes on from the next', () => {
    const bytes = Buffer.from('a,"open,x\nb,c,d\ne,f,g');
    const pieces = cut(bytes, random(1), 3, 1 << 20);
    expect(records(pieces, 1 << 20)).toEqual(['1 ! unterminated quote opened on line 1; reading resumed on line 2', '2 ["b","c","d"]', '3 ["e","f","g"]']);
    // Past the maximum record size, a quote is not allowed to close on a later line either.
    const long = Buffer.from(`a,"open\n${'b,c,d\n'.repeat(20)}e"\nf,g,h\n`);
    const read = records(cut(long, random(2), 5, 48), 48);
    expect(read[0]).toBe('1 ! unterminated quote opened on line 1; reading resumed on line 2');
    expect(read.slice(1, 3)).toEqual(['2 ["b","c","d"]', '3 ["b","c","d"]']);
    expect(read.at(-1)).toBe('23 ["f","g","h"]');
  });

  it('drops a record longer than the maximum without keeping it, counting its line', () => {
    const cutter = new RecordCutter({ delimiter: 44, maxRecordBytes: 100, rangeBytes: 16, line: 2 });
    const pieces = [...cutter.push(Buffer.from('a,b,c\n')), ...cutter.push(Buffer.alloc(150, 120)), ...cutter.push(Buffer.alloc(150, 120)), ...cutter.push(Buffer.from('\r')), ...cutter.push(Buffer.from('\nd,e,f\n')), ...cutter.finish()];
    expect(pieces.map((p) => (p.kind === 'range' ? `${p.line}: ${Buffer.from(p.bytes).toString()}` : `${p.line}: overlong`))).toEqual(['2: a,b,c\n', '3: overlong', '4: d,e,f\n']);
  });
});

describe('the column where a line stops being JSON', () => {
  it('agrees with JSON.parse where JSON.parse names a position', () => {
    const broken = ['{"a":1', '{"a":"x\u0001"}', '{"a":1}}', '[1,2', '{"cp": 09810}', '{"a":1,}', '{/*c*/"a":1}', '{"a":"\\x"}', '{"a":1e}', '{"a":-}', '{"a" 1}', '{"a":"b"'];
    for (const line of broken) {
      let position: number | undefined;
      try {
        JSON.parse(line);
      } catch (error) {
        position = Number(/at position (\d+)/.exec((error as Error).message)?.[1]);
      }
      expect(position, line).not.toBeNaN();
      expect(jsonErrorColumn(line), line).toBe(position! + 1);
    }
  });

  it('finds the column where JSON.parse names none', () => {
    expect(jsonErrorColumn('{"a":}')).toBe(6);
    expect(jsonErrorColumn('nope')).toBe(2);
    expect(jsonErrorColumn('{"a":tru}')).toBe(9);
    expect(jsonErrorColumn('{"cp":"09810","colonia":Minerva}')).toBe(25);
    expect(jsonErrorColumn(`${'['.repeat(60_000)}x`)).toBe(60_001);
  });
});

describe('splitting quoted records without csv-parse', () => {
  it('gives csv-parse’s fields for every record it splits, and leaves the rest to csv-parse', () => {
    const next = random(2024);
    const pick = <T>(options: readonly T[]) => options[Math.floor(next() * options.length)]!;
    const options = { relax_quotes: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] };
    let split = 0;
    for (let i = 0; i < 20_000; i++) {
      const delimiter = pick([',', ';', '|', '\t']);
      const fields = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        pick(['a', '', ' b ', 'ñ', `x${delimiter}y`, '"q"', '"Cliente 17, S.A. de C.V."', '"a ""b"""', '"l1\nl2"', '"l1\r\nl2"', '""', 'c"d', '"e"f', '"open', '"', ' "g"', '"h" ']),
      );
      const record = fields.join(delimiter);
      const mine = splitQuoted(record, delimiter);
      if (!mine) continue;
      split++;
      expect(parse(record, { ...options, delimiter }), JSON.stringify(record)).toEqual([mine]);
    }
    // Most plain quoted records are split here (the point: no csv-parse call for them).
    expect(split).toBeGreaterThan(2000);
    for (const record of ['"Cliente 17, S.A. de C.V.",09810,Minerva', '09810,"Minerva",Iztapalapa', '"a ""b""",,""']) {
      expect(splitQuoted(record, ','), record).toEqual(parse(record, { ...options, delimiter: ',' })[0]);
    }
    for (const record of ['"a"b,c', 'a"b,c', '"open,c', '""', 'x', '"a" ,b', 'a,b\nc,"d"']) expect(splitQuoted(record, ','), record).toBeUndefined();
  });
});
