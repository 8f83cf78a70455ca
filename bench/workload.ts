/**
 * The queries every contestant answers: drawn from the catalog in a fixed pseudo-random order
 * (seeded), so every run and every contestant sees the same sequence.
 */
import { foldStateName, STATE_ALIASES } from '../src/core/names.js';
import type { Lookups } from './contestants/types.js';

export interface Workload {
  /** Real codes, shuffled. */
  codes: string[];
  /** 5-digit codes the catalog does not have. */
  notFound: string[];
  /** Codes the contract refuses (101, 102, 104). */
  malformed: string[];
  prefixes1: string[];
  /** First three digits of the shuffled codes: prefixes as often as codes start with them. */
  prefixes3: string[];
  prefixes5: string[];
  /** State names as written, folded and upper-cased, and the aliases. */
  estados: string[];
  /** Municipality names as written, and folded and upper-cased: a name of several states answers for all. */
  municipios: string[];
  /** A state and one of its municipalities, as written. */
  municipiosDeEstado: [string, string][];
  /** State keys, `1` to `32` and `01` to `09`. */
  claves: string[];
  /**
   * The state with the most settlements and texts to find in its settlement names, as people
   * type them: a word of a real name, lower-cased, some without accents.
   */
  colonias: [string, string][];
}

/** mulberry32: a small, well-known seeded generator. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const SEED = 20261121;

export function makeWorkload(cpmx: Lookups, size = 4096): Workload {
  const next = random(SEED);
  const all: string[] = [];
  for (let d = 0; d <= 9; d++) all.push(...(cpmx.searchCp(String(d)) as { response: { cp: string[] } }).response.cp);
  const known = new Set(all);
  const codes = shuffle(all, next).slice(0, Math.min(size, all.length));
  const notFound: string[] = [];
  while (notFound.length < Math.min(size, 100_000 - known.size)) {
    const cp = String(Math.floor(next() * 100_000)).padStart(5, '0');
    if (!known.has(cp)) notFound.push(cp);
  }
  const states = (cpmx.getEstados() as { response: { estado: string[] } }).response.estado;
  const estados = shuffle(
    [...states, ...states.map((s) => foldStateName(s).toUpperCase()), ...Object.values(STATE_ALIASES).flat()],
    next,
  );
  const pairs: [string, string][] = [];
  let largest = { estado: '', settlements: -1 };
  for (const estado of states) {
    for (const municipio of (cpmx.getMunicipioPorEstado(estado) as { response: { municipios: string[] } }).response.municipios) pairs.push([estado, municipio]);
    let settlements = 0;
    for (const cp of (cpmx.getCpPorEstado(estado) as { response: { cp: string[] } }).response.cp) {
      settlements += (cpmx.getColoniaPorCp(cp) as { response: { colonia: string[] } }).response.colonia.length;
    }
    if (settlements > largest.settlements) largest = { estado, settlements };
  }
  const names = [...new Set(pairs.map(([, municipio]) => municipio))];
  const words: string[] = [];
  for (const [estado, municipio] of pairs) {
    if (estado !== largest.estado) continue;
    for (const name of (cpmx.getColoniaPorEstadoMunicipio(estado, municipio) as { response: { colonia: string[] } }).response.colonia) {
      for (const word of name.split(/\s+/)) if (word.length >= 4) words.push(word);
    }
  }
  const colonias = shuffle(words, next)
    .slice(0, size)
    .map((word, i): [string, string] => [largest.estado, i % 2 ? foldStateName(word) : word.toLowerCase()]);
  return {
    codes,
    notFound,
    malformed: ['0981', '098100', '09a10', '-0981', '', '０９８１０', '9810 ', 'abcde'],
    prefixes1: shuffle(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], next),
    prefixes3: codes.map((cp) => cp.slice(0, 3)),
    prefixes5: codes,
    estados,
    municipios: shuffle([...names, ...names.map((name) => foldStateName(name).toUpperCase())], next).slice(0, size),
    municipiosDeEstado: shuffle(pairs, next).slice(0, size),
    claves: shuffle([...Array.from({ length: 32 }, (_, i) => String(i + 1)), ...Array.from({ length: 9 }, (_, i) => `0${i + 1}`)], next),
    colonias,
  };
}
