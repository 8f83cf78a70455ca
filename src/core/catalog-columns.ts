/**
 * The artifact's sections as the catalog's typed columns and string tables, with what needs no
 * read of the data checked at load: every section's size and kind and how the sizes fit. Each
 * total (string tables, settlement starts, state cities, the trie's levels) and the small
 * municipality and state-city columns are checked before the first method that reads whole
 * columns (`wholeChecks`, the trie's own); what a code's first lookup reads, where it reads it
 * (catalog-in-place.ts, strings.ts, code-trie.ts): checking 300,000 indices at load would cost
 * more than the rest of it. What is read is read through `pages`, which reads and checks each
 * page first (pages.ts).
 */
import { CodeTrie } from './code-trie.js';
import { FORMAT_NAME, FORMAT_VERSION, SETTLEMENT_BYTES, type UintArray } from './format.js';
import { COLUMNS, STRING_TABLES, type ColumnName, type Payload, type Section, type StringTableName } from './layout.js';
import type { Pages } from './pages.js';
import { Strings } from './strings.js';

/** The artifact's header, sections and pages as read from a file (see layout.ts). */
export type ArtifactSections = Payload;

/** The catalog's parts, checked to fit together (the names are the artifact's, layout.ts). */
export interface CatalogColumns {
  codes: number;
  rows: number;
  states: Strings;
  municipalityNames: Strings;
  cities: Strings;
  types: Strings;
  names: Strings;
  stateKeys: UintArray;
  municipalityState: UintArray;
  municipalityKey: UintArray;
  municipalityName: UintArray;
  codeMunicipality: UintArray;
  codeCity: UintArray;
  settlementStart: UintArray;
  settlements: Uint8Array;
  settlementRanks: UintArray | undefined;
  stateCityStart: UintArray;
  stateCities: UintArray;
  history: Uint8Array | undefined;
  trie: CodeTrie;
  /** The checks of whole columns, for the catalog to run once every page is checked. */
  wholeChecks: () => void;
}

/**
 * The checked columns of an artifact; throws an Error saying what does not fit when its parts
 * do not fit together. `fail` is what a check made at first use calls (the string tables' and
 * the trie's): it throws the error that says to rebuild.
 */
export function checkedColumns({ header, sections }: ArtifactSections, pages: Pages, fail: (reason: string) => never): CatalogColumns {
  expect(header !== null && typeof header === 'object', 'its header is not an object');
  expect(header.format === FORMAT_NAME && header.version === FORMAT_VERSION, 'its header does not match its envelope');
  const { codes, rows } = header;
  for (const count of [codes, rows, header.states, header.municipalities]) expect(Number.isInteger(count) && count >= 0, 'its header does not count its parts');
  const table = (name: StringTableName) => {
    const at = STRING_TABLES.indexOf(name) * 3;
    const [bytes, lengths, starts] = [sections[at]!, sections[at + 1]!, sections[at + 2]!];
    expect(bytes.kind === 1 && bytes.column instanceof Uint8Array, 'a string table is not bytes');
    return new Strings(bytes.column, unsigned(lengths, 'a string table'), unsigned(starts, 'a string table'), pages, fail);
  };
  const column = (name: ColumnName, what: string) => unsigned(sections[STRING_TABLES.length * 3 + COLUMNS.indexOf(name)]!, what);
  const optional = (name: ColumnName, what: string) => {
    const section = sections[STRING_TABLES.length * 3 + COLUMNS.indexOf(name)]!;
    return section.kind === 0 ? undefined : unsigned(section, what);
  };
  const c: Omit<CatalogColumns, 'trie' | 'history' | 'wholeChecks'> = {
    codes,
    rows,
    states: table('states'),
    municipalityNames: table('municipalities'),
    cities: table('cities'),
    types: table('types'),
    names: table('settlements'),
    stateKeys: column('stateKeys', 'the state keys'),
    municipalityState: column('municipalityState', 'a municipality names a state'),
    municipalityKey: column('municipalityKey', 'the municipality keys'),
    municipalityName: column('municipalityName', 'a municipality names a name'),
    codeMunicipality: column('codeMunicipality', 'a code names a municipality'),
    codeCity: column('codeCity', 'a code names a city'),
    settlementStart: column('settlementStart', 'settlement counts'),
    settlements: column('settlements', 'the settlements') as Uint8Array,
    settlementRanks: optional('settlementRanks', 'a settlement ranks'),
    stateCityStart: column('stateCityStart', 'state cities are missing'),
    stateCities: column('stateCities', 'state cities are missing'),
  };
  const history = optional('history', 'the history section');
  expect(history === undefined || history instanceof Uint8Array, 'the history section is not bytes');
  const { states, municipalities } = header;
  expect(c.settlementStart.length === codes + 1, 'settlement counts do not match the code count');
  expect(c.settlements instanceof Uint8Array && c.settlements.length === rows * SETTLEMENT_BYTES, 'settlement table has the wrong size');
  expect(c.codeMunicipality.length === codes && c.codeCity.length === codes, 'code columns have the wrong length');
  expect(
    c.municipalityState.length === municipalities && c.municipalityKey.length === municipalities && c.municipalityName.length === municipalities,
    'municipality columns have the wrong length',
  );
  expect(c.states.size === states && c.stateKeys.length === states, 'state table has the wrong size');
  expect(c.settlementRanks === undefined || c.settlementRanks.length === rows, 'settlement ranks have the wrong length');
  expect(c.stateCityStart.length === states + 1, 'state cities are missing');
  const trie = new CodeTrie(column('trie', 'the trie'), column('trieFirstChild', 'the trie'), column('trieLevels', 'the trie'), codes, pages, fail);

  // The totals and the small columns are checked whole, with every page read (a code's first
  // lookup reads none of them: its own reads are checked where they are made, the settlement
  // starts' total by the catalog); the per-code columns when a code is first read.
  const wholeChecks = () => {
    try {
      expect(c.stateCityStart[0] === 0, 'state cities are missing');
      expect(c.stateCityStart[states] === c.stateCities.length, 'state cities do not add up');
      expectAscending(c.stateCityStart, 'state cities do not add up');
      for (const strings of [c.states, c.municipalityNames, c.cities, c.types, c.names]) strings.checkTotal();
      expectBelow(c.municipalityState, c.states.size, 'a municipality names a state');
      expectBelow(c.municipalityName, c.municipalityNames.size, 'a municipality names a name');
      expectBelow(c.stateCities, c.cities.size, 'a state names a city');
      if (c.settlementRanks) expectBelow(c.settlementRanks, rows, 'a settlement ranks');
    } catch (error) {
      fail((error as Error).message);
    }
  };
  return { ...c, history, trie, wholeChecks };
}

function expect(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new Error(reason);
}

/** A section that must be an unsigned integer column. */
function unsigned(section: Section, what: string): UintArray {
  if (!section.column) throw new Error(`${what}: the column is ${section.kind === 0 ? 'missing' : 'not an unsigned integer column'}`);
  return section.column;
}

/** Every value of an index column is below `size` (the length of what it indexes). */
function expectBelow(column: UintArray, size: number, what: string): void {
  let max = 0;
  for (let i = 0; i < column.length; i++) if (column[i]! > max) max = column[i]!;
  expect(column.length === 0 || max < size, `${what} beyond its table (${max} of ${size})`);
}

function expectAscending(column: UintArray, what: string): void {
  for (let i = 1; i < column.length; i++) expect(column[i - 1]! <= column[i]!, what);
}
