/**
 * The contract's checks and envelopes for the contestants that are not cpmx, so that every
 * contestant does the same work: validate, look up, wrap. Reuses cpmx's exported helpers for
 * the pure string logic (envelopes, state-name folding), never its data access.
 */
import { failure, success, type ErrorEnvelope } from '../../src/core/contract.js';
import { foldSettlementName, foldStateName, stateSpellings } from '../../src/core/names.js';
import type { AdvancedOptions } from './types.js';

export { failure, foldSettlementName, success };

const DIGITS = /^[0-9]+$/;

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** 101, 102 or 104 for an `info_cp` segment, else undefined. */
export function codeError(cp: string): ErrorEnvelope | undefined {
  if (!cp) return failure(101);
  if (codePoints(cp) !== 5) return failure(102);
  return DIGITS.test(cp) ? undefined : failure(104);
}

/** 101, 102 or 104 for a `search_cp` segment, else undefined. */
export function prefixError(prefix: string): ErrorEnvelope | undefined {
  if (!prefix) return failure(101);
  if (codePoints(prefix) > 5) return failure(102);
  return DIGITS.test(prefix) ? undefined : failure(104);
}

/** Folded state name or alias → position in `states`. */
export function stateIndex(states: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const [i, state] of states.entries()) index.set(foldStateName(state), i);
  states.forEach((state, i) => {
    for (const spelling of stateSpellings(state)) if (!index.has(foldStateName(spelling))) index.set(foldStateName(spelling), i);
  });
  return index;
}

export { foldStateName };

export interface SettlementRow {
  name: string;
  type: string;
  city: string;
}

/** The `info_cp` body of a code from its rows in catalog order. */
export function infoBody(cp: string, rows: readonly SettlementRow[], municipio: string, estado: string, simplified: boolean): unknown {
  let ciudad = '';
  for (const row of rows) {
    if (row.city) {
      ciudad = row.city;
      break;
    }
  }
  if (simplified) {
    return success({ cp, asentamiento: rows.map((row) => row.name), tipo_asentamiento: rows[0]!.type, municipio, estado, ciudad, pais: 'México' });
  }
  return rows.map((row) => success({ cp, asentamiento: row.name, tipo_asentamiento: row.type, municipio, estado, ciudad, pais: 'México' }));
}

/** Names once each, in the order given. */
export function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}

/** Missing, empty or only white space. */
export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** 109 or 116 for a state key (`clave`), else undefined. */
export function keyError(clave: string): ErrorEnvelope | undefined {
  if (blank(clave)) return failure(109);
  return /^[0-9]{1,2}$/.test(clave) ? undefined : failure(116);
}

/** 114 or 109 for a municipality method's municipio and optional estado, else undefined. */
export function municipalityError(municipio: string, estado: string | undefined): ErrorEnvelope | undefined {
  if (blank(municipio)) return failure(114);
  return estado && blank(estado) ? failure(109) : undefined;
}

/** 109, 114 or 117 for search_cp_advanced, else undefined. */
export function advancedError(estado: string, { municipio, limit }: AdvancedOptions): ErrorEnvelope | undefined {
  if (blank(estado)) return failure(109);
  if (municipio && blank(municipio)) return failure(114);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100_000)) return failure(117);
  return undefined;
}

/** The text a colonia filter looks for, or undefined when it filters nothing. */
export function coloniaNeedle(colonia: string | undefined): string | undefined {
  return colonia ? foldSettlementName(colonia) || undefined : undefined;
}
