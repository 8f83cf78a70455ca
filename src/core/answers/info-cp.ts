/**
 * `info_cp`'s answer, built one way. The records' shape is written once, by the object builders
 * below (`simplifiedRecord`, `fullRecords`); its JSON text, for adapters that write bytes
 * (HTTP), is those builders' own JSON with the code's values put in place: a template made
 * once by serialising what the builders make of marked values, so the text cannot differ from
 * `JSON.stringify` of the object. The values go in JSON-quoted once per code and kept, so an
 * answer's text costs a few concatenations instead of a serialisation of the whole object
 * (about a quarter of the time).
 */
import type { CatalogReader } from '../catalog-reader.js';
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type CodeEntry } from '../code-entry.js';
import { postalCodeNumber } from '../code-trie.js';
import { CODE_LENGTH } from '../format.js';
import type { InfoCpBody, PostalCodeRecord, SimplifiedPostalCodeRecord, SuccessEnvelope } from '../contract.js';

const PAIS = 'México';

/**
 * `info_cp`'s body for a code that passed its checks (5 ASCII digits), or 105: the code's
 * entry, then the records. Any string may be asked: one that is no code of the catalog is 105.
 */
export function answerInfoCp(catalog: CatalogReader, cp: string, simplified: boolean): InfoCpBody | 105 {
  const entry = catalog.postalCodeEntry(cp);
  // Written so: the web module's size is at its budget, and this minifies smallest.
  return entry === undefined ? 105 : simplified ? simplifiedRecord(entry, cp) : fullRecords(entry, cp);
}

/** `info_cp`'s full-mode body for code `cp`, from its entry: one envelope per settlement. */
export function fullRecords(entry: CodeEntry, cp: string): SuccessEnvelope<PostalCodeRecord>[] {
  const n = entrySettlements(entry);
  const municipio = entry[ENTRY_MUNICIPIO]!;
  const estado = entry[ENTRY_ESTADO]!;
  const ciudad = entry[ENTRY_CIUDAD]!;
  const body = new Array<SuccessEnvelope<PostalCodeRecord>>(n);
  for (let i = 0; i < n; i++) {
    body[i] = {
      error: false,
      code_error: 0,
      error_message: null,
      response: { cp, asentamiento: entry[ENTRY_NAMES + i]!, tipo_asentamiento: entry[ENTRY_NAMES + n + i]!, municipio, estado, ciudad, pais: PAIS },
    };
  }
  return body;
}

/** `info_cp`'s simplified body, fresh objects each time from the code's kept entry: a caller that changes its answer changes no other. */
export function simplifiedRecord(entry: CodeEntry, cp: string): SuccessEnvelope<SimplifiedPostalCodeRecord> {
  const n = entrySettlements(entry);
  return {
    error: false,
    code_error: 0,
    error_message: null,
    response: {
      cp,
      // One settlement (most codes): a literal, allocated with the objects around it, not a slice.
      asentamiento: n === 1 ? [entry[ENTRY_NAMES]!] : entry.slice(ENTRY_NAMES, ENTRY_NAMES + n),
      tipo_asentamiento: entry[ENTRY_NAMES + n]!,
      municipio: entry[ENTRY_MUNICIPIO]!,
      estado: entry[ENTRY_ESTADO]!,
      ciudad: entry[ENTRY_CIUDAD]!,
      pais: PAIS,
    },
  };
}

/**
 * A record's JSON text with holes: `pieces[0]`, then each slot's value followed by the next
 * piece. A slot is a place in a one-settlement entry (`ENTRY_NAMES` its name, one after its
 * type) or CP_SLOT.
 */
interface Template {
  pieces: string[];
  slots: number[];
}
const CP_SLOT = -1;
/** A value standing for a slot: private-use characters, which JSON leaves as they are and the builders write nowhere else. */
const mark = (slot: number) => `\uE000${slot}\uE001`;
const MARKS = /"\uE000(-?\d+)\uE001"/g;

/** The template of what `build` makes of a one-settlement entry of marks, its outer brackets cut by `trim`. */
function templateOf(build: (entry: CodeEntry, cp: string) => unknown, trim: number): Template {
  const entry = [ENTRY_MUNICIPIO, ENTRY_ESTADO, ENTRY_CIUDAD, ENTRY_NAMES, ENTRY_NAMES + 1].map(mark);
  const json = JSON.stringify(build(entry, mark(CP_SLOT)));
  const parts = json.slice(trim, json.length - trim).split(MARKS);
  return { pieces: parts.filter((_, i) => i % 2 === 0), slots: parts.filter((_, i) => i % 2 === 1).map(Number) };
}

let simplifiedTemplate: Template | undefined;
/** The full body is an array of records: the template is of one of them, without the array's brackets; and cut at each settlement's own slots. */
let fullTemplate: Template | undefined;
let recordTemplateCut: RecordTemplate | undefined;

/** The value of `slot` for record `i` of an entry of `n` settlements whose strings are `quoted`. */
function slotValue(slot: number, quoted: readonly string[], cp: string, i: number, n: number): string {
  return slot === CP_SLOT ? cp : slot < ENTRY_NAMES ? quoted[slot]! : slot === ENTRY_NAMES ? quoted[ENTRY_NAMES + i]! : quoted[ENTRY_NAMES + n + i]!;
}

/** `template` with the values of record `i` put in; `names`, when given, goes in the name's place (the simplified record's list). */
function fill(template: Template, quoted: readonly string[], cp: string, i: number, n: number, names?: string): string {
  const { pieces, slots } = template;
  let json = pieces[0]!;
  for (let s = 0; s < slots.length; s++) {
    const slot = slots[s]!;
    json += (slot === ENTRY_NAMES && names !== undefined ? names : slotValue(slot, quoted, cp, i, n)) + pieces[s + 1]!;
  }
  return json;
}

/**
 * The full record's template cut at each settlement's own slots (its name and type, `slots`):
 * `parts` hold only what a code's records share, filled once per code.
 */
interface RecordTemplate {
  parts: Template[];
  slots: number[];
}

function recordTemplate({ pieces, slots }: Template): RecordTemplate {
  const parts: Template[] = [{ pieces: [pieces[0]!], slots: [] }];
  const own: number[] = [];
  for (let s = 0; s < slots.length; s++) {
    const slot = slots[s]!;
    const next = pieces[s + 1]!;
    if (slot < ENTRY_NAMES) {
      const part = parts[parts.length - 1]!;
      part.slots.push(slot);
      part.pieces.push(next);
    } else {
      own.push(slot);
      parts.push({ pieces: [next], slots: [] });
    }
  }
  return { parts, slots: own };
}

/** Each catalog's codes' entries, every string already JSON-quoted (same layout as CodeEntry), by code number. */
const quotedEntries = new WeakMap<CatalogReader, (readonly string[] | undefined)[]>();

/**
 * The JSON of `info_cp`'s body for `cp`: exactly `JSON.stringify(answerInfoCp(...))`, or
 * undefined when the catalog has no such code (105, which the router answers).
 */
export function infoCpJson(catalog: CatalogReader, cp: string, simplified: boolean): string | undefined {
  const text = infoCpText(catalog, cp, simplified);
  return text === 105 ? undefined : text();
}

/**
 * `info_cp`'s answer as text, for adapters that write bytes (the method table's `text`): the
 * code looked up now (105 when the catalog lacks it), its JSON made only when called, which a
 * server holding the bytes already never does.
 */
export function infoCpText(catalog: CatalogReader, cp: string, simplified: boolean): (() => string) | 105 {
  const entry = catalog.postalCodeEntry(cp);
  return entry === undefined ? 105 : () => jsonOf(catalog, entry, cp, simplified);
}

function jsonOf(catalog: CatalogReader, entry: CodeEntry, cp: string, simplified: boolean): string {
  let entries = quotedEntries.get(catalog);
  // Made at once, as the catalog's table by code number is: an array grown by far indices becomes a slow dictionary.
  if (!entries) quotedEntries.set(catalog, (entries = new Array<readonly string[] | undefined>(10 ** CODE_LENGTH)));
  const quoted = (entries[postalCodeNumber(cp)] ??= entry.map((text) => JSON.stringify(text)));
  const n = entrySettlements(entry);
  // Digits need no escaping.
  const quotedCp = `"${cp}"`;
  if (simplified) {
    const names = n === 1 ? quoted[ENTRY_NAMES]! : quoted.slice(ENTRY_NAMES, ENTRY_NAMES + n).join(',');
    return fill((simplifiedTemplate ??= templateOf(simplifiedRecord, 0)), quoted, quotedCp, 0, n, names);
  }
  const template = (fullTemplate ??= templateOf(fullRecords, 1));
  // One settlement (most codes): one record, filled in one pass.
  if (n === 1) return `[${fill(template, quoted, quotedCp, 0, 1)}]`;
  // The code's own values put in once; then each record puts in its settlement's name and type.
  const { parts, slots } = (recordTemplateCut ??= recordTemplate(template));
  const pieces = new Array<string>(parts.length);
  for (let p = 0; p < parts.length; p++) pieces[p] = fill(parts[p]!, quoted, quotedCp, 0, n);
  let json = '[';
  for (let i = 0; i < n; i++) {
    json += i ? `,${pieces[0]}` : pieces[0];
    // A record's own slots are its settlement's name and type.
    for (let s = 0; s < slots.length; s++) json += quoted[slots[s] === ENTRY_NAMES ? ENTRY_NAMES + i : ENTRY_NAMES + n + i] + pieces[s + 1]!;
  }
  return `${json}]`;
}
