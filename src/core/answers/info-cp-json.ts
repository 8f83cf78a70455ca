/**
 * `info_cp`'s body as JSON text, for adapters that write bytes (HTTP): exactly
 * `JSON.stringify(answerInfoCp(...))`, made from the code's entry with each of its strings
 * JSON-quoted once and kept, so that an answer costs a few concatenations instead of a
 * serialization of the whole object (about a quarter of the time).
 */
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type Catalog } from '../catalog.js';

const PAIS = JSON.stringify('México');
const OK = '{"error":false,"code_error":0,"error_message":null,"response":{"cp":';

/** Each catalog's codes' entries, every string already JSON-quoted (same layout as CodeEntry). */
const quotedEntries = new WeakMap<Catalog, (readonly string[] | undefined)[]>();

function quotedEntry(catalog: Catalog, code: number): readonly string[] {
  let entries = quotedEntries.get(catalog);
  if (!entries) quotedEntries.set(catalog, (entries = new Array<readonly string[] | undefined>(catalog.codeCount)));
  return (entries[code] ??= catalog.codeEntry(code).map((text) => JSON.stringify(text)));
}

/**
 * The JSON of `info_cp`'s body for `cp` (which passed the router's checks: 5 ASCII digits), or
 * undefined when the catalog has no such code (105, which the router answers).
 */
export function infoCpJson(catalog: Catalog, cp: string, simplified: boolean): string | undefined {
  const code = catalog.codeIndex(cp);
  if (code < 0) return undefined;
  const entry = quotedEntry(catalog, code);
  const n = entrySettlements(entry);
  // Digits need no escaping.
  const head = `${OK}"${cp}",`;
  const tail = `,"municipio":${entry[ENTRY_MUNICIPIO]},"estado":${entry[ENTRY_ESTADO]},"ciudad":${entry[ENTRY_CIUDAD]},"pais":${PAIS}}}`;
  if (simplified) {
    const names = entry.slice(ENTRY_NAMES, ENTRY_NAMES + n).join(',');
    return `${head}"asentamiento":[${names}],"tipo_asentamiento":${entry[ENTRY_NAMES + n]}${tail}`;
  }
  let json = '[';
  for (let i = 0; i < n; i++) json += `${i ? ',' : ''}${head}"asentamiento":${entry[ENTRY_NAMES + i]},"tipo_asentamiento":${entry[ENTRY_NAMES + n + i]}${tail}`;
  return `${json}]`;
}
