/**
 * TEMPORARY: the settlement readings that core/names.ts gains with issue 19's first part
 * (branch i19names); removed when that lands. Only the catalog's own type names are known
 * here, no shortened forms.
 */
import type { Catalog } from '../core/catalog.js';
import { foldForMatch } from '../core/names.js';

const TYPES = [
  'Colonia',
  'Fraccionamiento',
  'Barrio',
  'Pueblo',
  'Ejido',
  'Ranchería',
  'Rancho',
  'Unidad habitacional',
  'Conjunto habitacional',
  'Residencial',
  'Condominio',
  'Hacienda',
  'Ampliación',
  'Zona industrial',
  'Parque industrial',
];

export function splitSettlementType(text: string): { type: string | null; name: string } {
  const trimmed = text.trim();
  for (const type of TYPES) {
    if (trimmed.length > type.length && foldForMatch(trimmed.slice(0, type.length)) === foldForMatch(type) && trimmed[type.length] === ' ') {
      return { type, name: trimmed.slice(type.length + 1).trim() };
    }
  }
  return { type: null, name: trimmed };
}

export function settlementKey(text: string): string {
  return foldForMatch(text);
}

/** The settlement of code index `code` that `text` names: its index, or -1. */
export function matchSettlement(catalog: Catalog, code: number, text: string): number {
  const key = settlementKey(splitSettlementType(text).name);
  const whole = settlementKey(text);
  for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
    const name = settlementKey(catalog.settlementName(s));
    if (name === key || name === whole) return s;
  }
  return -1;
}
