/**
 * The folds of names: case and accents dropped (the contract's), white space made one space
 * (settlement names), punctuation made space (free text). Each has a Latin-1 fast path that
 * agrees with its general form.
 */
import { lazyPattern } from './lazy-pattern.js';

const mark = /* @__PURE__ */ lazyPattern('\\p{M}', 'gu');
const punctuationOrSymbols = /* @__PURE__ */ lazyPattern('[\\p{P}\\p{S}]+', 'gu');

/** Lower case with accents dropped (Unicode NFD, marks removed): the contract's fold. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(mark(), '').toLowerCase();
}

/** Folds a state or municipality name as the contract matches it: trimmed, no case, no accents. */
export function foldStateName(name: string): string {
  const trimmed = name.trim();
  // Latin-1 text (all of the official catalog, most of what people type) folds through a
  // table of each character's fold; anything wider takes Unicode's own path. Both agree.
  const accents = accentTable();
  let out = '';
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c > 0xff) return foldAccents(trimmed);
    out += accents[c]!;
  }
  return out;
}

/**
 * Folds a settlement name for the `colonia` filter: the fold of names, with every run of
 * white space made one space, so `Lomas  de Chapultepec` contains `lomas de`.
 */
export function foldSettlementName(name: string): string {
  const trimmed = name.trim();
  const accents = accentTable();
  const spaces = spaceTable();
  let out = '';
  let space = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c > 0xff) return foldAccents(trimmed).replace(/\s+/g, ' ');
    if (spaces[c]) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += accents[c]!;
      space = false;
    }
  }
  return out;
}

/**
 * Folds for comparing free text (address validation): case, accents, punctuation and runs of
 * white space, so `granjas  esmeralda` matches `Granjas Esmeralda`.
 */
export function foldForMatch(text: string): string {
  // Most names are plain: ASCII letters and digits, single spaces inside (an upper-cased
  // export, `GRANJAS ESMERALDA`). Their fold is the engine's own lower-casing.
  if (isPlain(text)) return text.toLowerCase();
  // One pass for Latin-1 text (all of the official catalog): each character is a letter or
  // digit to keep (lowered, accent dropped) or a separator (punctuation, symbol, space);
  // anything wider takes the general path. Both give the same result.
  const fold = matchTable();
  let out = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return foldPunctuation(text);
    const folded = fold[c]!;
    if (folded === '') {
      space = true;
      continue;
    }
    if (space && out) out += ' ';
    space = false;
    out += folded;
  }
  return out;
}

/** Whether `text` is ASCII letters and digits with single spaces between words: `foldForMatch` is then lower-casing. */
function isPlain(text: string): boolean {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) continue;
    if (c === 0x20 && i > 0 && i < last && text.charCodeAt(i - 1) !== 0x20) continue;
    return false;
  }
  return true;
}

/** The general form of `foldForMatch`: the contract's fold, punctuation and symbols as spaces. */
function foldPunctuation(text: string): string {
  return foldAccents(text)
    .replace(punctuationOrSymbols(), ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `foldAccents` of each Latin-1 character alone, made by running it, and which of them are
 * white space to `\s` (and to `trim`): made on first use, to keep loading cheap.
 */
let latin1Accents: readonly string[] | undefined;
let latin1Space: readonly boolean[] | undefined;

function accentTable(): readonly string[] {
  return (latin1Accents ??= Array.from({ length: 0x100 }, (_, c) => foldAccents(String.fromCharCode(c))));
}

function spaceTable(): readonly boolean[] {
  return (latin1Space ??= Array.from({ length: 0x100 }, (_, c) => /\s/.test(String.fromCharCode(c))));
}

/** `foldPunctuation` of each Latin-1 character alone ("" for a separator): made by running it, on first use. */
let latin1Fold: readonly string[] | undefined;

function matchTable(): readonly string[] {
  return (latin1Fold ??= Array.from({ length: 0x100 }, (_, c) => foldPunctuation(String.fromCharCode(c))));
}
