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
  return {
    codes,
    notFound,
    malformed: ['0981', '098100', '09a10', '-0981', '', '０９８１０', '9810 ', 'abcde'],
    prefixes1: shuffle(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], next),
    prefixes3: codes.map((cp) => cp.slice(0, 3)),
    prefixes5: codes,
    estados,
  };
}
