/**
 * The contract's checks and envelopes for the contestants that are not cpmx, so that every
 * contestant does the same work: validate, look up, wrap. Reuses cpmx's exported helpers for
 * the pure string logic (envelopes, state-name folding), never its data access.
 */
import { failure, success, type ErrorEnvelope } from '../../src/core/contract.js';
import { foldStateName, stateSpellings } from '../../src/core/names.js';

export { failure, success };

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
