/**
 * Settlements read loosely, for the rule of codes from names: a name written with or without
 * its joining words, without its section, or without a title or `Unidad` in front (the
 * settlement matcher's `looseIndexOf` readings, core/settlement-names). Read last, where no
 * settlement of the place has the name as written. Each municipality's names are keyed so at
 * the first name read loosely in it (about 60 names each): most inputs touch few, and a
 * misspelt name costs one lookup, not a keying of the whole catalog.
 */
import type { Catalog } from '../core/catalog.js';
import { withoutConnectors } from '../core/name-keys.js';
import { looseFrontless, looseSectionless, namedSectionless, undividedReading } from '../core/settlement-other-keys.js';
import { Remembered } from './remembered.js';
import { typos } from './typos.js';

const NONE: readonly number[] = [];

/** The most municipalities searched for a misspelt name: a name and its municipality written, not a state's thousands of names. */
const MAX_MISSPELT_MUNICIPALITIES = 4;

/** The typos a written name may hold and still name a settlement: one, two in a long name; none in a short one (`El Palmar` is not *Las Palmas*). */
function typosAllowed(length: number): number {
  return length >= 15 ? 2 : length >= 8 ? 1 : 0;
}

/**
 * What a typo never changes in a name: its numbers, in order (`Sector 32` is not `Sector 33`),
 * and a letter that ends it (`Sección A`, `2a Sección B`).
 */
function markOf(form: string): string {
  const letter = /(?:^| )([a-z])$/.exec(form)?.[1] ?? '';
  return `${form.replace(/\D+/g, ' ').trim()}|${letter}`;
}

export class LooseNames {
  /** By municipality: each loose form of its settlements' keys → the codes (ascending, each once) with a settlement of that form. */
  private readonly byMunicipality: (Map<string, number[]> | undefined)[];

  constructor(
    private readonly catalog: Catalog,
    /** The key of settlement (row) `s`: the settlement index's, read rather than made again. */
    private readonly keyOf: (s: number) => string,
  ) {
    this.byMunicipality = new Array<Map<string, number[]> | undefined>(catalog.municipalityCount);
  }

  /**
   * The codes (ascending, each once) with a settlement whose key without joining words, or
   * without its section or what people leave out in front, is the written key `written`
   * without its joining words, else without a title in front that the catalog's name has not
   * (`Dr. Norberto Treviño Zapata`), within the municipalities given, else the state's; none
   * for a name with neither (the whole country is no place to read a name loosely).
   */
  codes(written: string, municipalities: readonly number[], state: number): readonly number[] {
    const byLoose = this.codesOf(withoutConnectors(written), municipalities, state);
    if (byLoose.length) return byLoose;
    const byFrontless = this.codesOf(looseFrontless(written), municipalities, state);
    return byFrontless.length ? byFrontless : this.undividedCodes(written, municipalities);
  }

  /**
   * The codes of the place a name written with a section names where the catalog does not
   * divide it (`Lomas Estrella 2a Sección` is *Lomas Estrella*, 09890; `Garcimarrero Secc.
   * Norte` *Garcimarrero*): within the municipalities written, and none where the catalog
   * divides the place into sections (a section it lacks is no guess at another).
   */
  private undividedCodes(written: string, municipalities: readonly number[]): readonly number[] {
    const place = namedSectionless(written);
    return place && municipalities.length ? this.undivided(place, municipalities) : NONE;
  }

  /** Undivided places' codes: each asks every name of the municipalities, so it is remembered. */
  private readonly undivided = rememberedIn((place, municipalities) => {
    let codes: number[] | undefined;
    for (const m of municipalities) {
      for (const [key, { codes: its }] of this.namesOf(m)) {
        const reading = undividedReading(place, key);
        if (reading === 'section') return NONE;
        if (reading === 'place') for (const code of its) if (!codes?.includes(code)) (codes ??= []).push(code);
      }
    }
    return codes ? codes.sort((a, b) => a - b) : NONE;
  });

  /**
   * The codes of the one settlement of the municipalities (at most four) whose key the
   * written one misspells: a typo or two away (`Corpus Cristy` is *Corpus
   * Christy*), its numbers and final letter the same, and no other name as near. None otherwise: read last, where
   * no reading of the name finds it, as `cpmx validate` restores a misspelt name of a code.
   */
  misspelt(written: string, municipalities: readonly number[]): readonly number[] {
    if (municipalities.length === 0 || municipalities.length > MAX_MISSPELT_MUNICIPALITIES || typosAllowed(written.length) === 0) return NONE;
    // A name no settlement has is measured against every name of its municipality (75 µs in
    // Hermosillo's 2,276): remembered, as files repeat the names the catalog lacks.
    return this.misspellings(written, municipalities);
  }

  /** Misspelt names' codes, remembered. */
  private readonly misspellings = rememberedIn((written, municipalities) => this.nearest(written, municipalities));

  private nearest(form: string, municipalities: readonly number[]): readonly number[] {
    const allowed = typosAllowed(form.length);
    const mark = markOf(form);
    let best = allowed + 1;
    let nearest: string | undefined;
    let tied = false;
    for (const m of municipalities) {
      for (const [name, { mark: its }] of this.namesOf(m)) {
        if (Math.abs(name.length - form.length) > Math.min(best, allowed) || its !== mark) continue;
        const d = typos(form, name, Math.min(best, allowed));
        if (d < best) {
          best = d;
          nearest = name;
          tied = false;
        } else if (d === best && name !== nearest) tied = true;
      }
    }
    if (nearest === undefined || tied) return NONE;
    const codes: number[] = [];
    for (const m of municipalities) for (const code of this.namesOf(m).get(nearest)?.codes ?? NONE) if (!codes.includes(code)) codes.push(code);
    return codes.sort((a, b) => a - b);
  }

  private codesOf(form: string, municipalities: readonly number[], state: number): readonly number[] {
    if (!form) return NONE;
    const places = municipalities.length ? municipalities : state >= 0 ? this.municipalitiesOf(state) : NONE;
    let codes: number[] | undefined;
    for (const m of places) {
      const found = this.formsOf(m).get(form);
      if (found) for (const code of found) if (!codes?.includes(code)) (codes ??= []).push(code);
    }
    return codes ? codes.sort((a, b) => a - b) : NONE;
  }

  private municipalitiesOf(state: number): number[] {
    const catalog = this.catalog;
    const found: number[] = [];
    for (let m = 0; m < catalog.municipalityCount; m++) if (catalog.stateOfMunicipality(m) === state) found.push(m);
    return found;
  }

  /** By municipality: each settlement's key → its codes and what a typo never changes in it (`markOf`), for misspelt names; made at the first such name in it. */
  private readonly namesByMunicipality: (Map<string, { codes: number[]; mark: string }> | undefined)[] = [];

  private namesOf(m: number): Map<string, { codes: number[]; mark: string }> {
    let names = this.namesByMunicipality[m];
    if (names) return names;
    names = new Map();
    this.eachKey(m, (key, code) => {
      const name = names!.get(key);
      if (!name) names!.set(key, { codes: [code], mark: markOf(key) });
      else if (name.codes.at(-1) !== code) name.codes.push(code);
    });
    this.namesByMunicipality[m] = names;
    return names;
  }

  /** Each settlement key of a municipality, with its code. */
  private eachKey(m: number, each: (key: string, code: number) => void): void {
    const catalog = this.catalog;
    const runs = catalog.codeRunsOfMunicipality(m);
    for (let r = 0; r < runs.length; r += 2) {
      for (let code = runs[r]!; code < runs[r + 1]!; code++) {
        for (let s = catalog.settlementStartOf(code), end = catalog.settlementEndOf(code); s < end; s++) each(this.keyOf(s), code);
      }
    }
  }

  private formsOf(m: number): Map<string, number[]> {
    let forms = this.byMunicipality[m];
    if (forms) return forms;
    forms = new Map();
    this.eachKey(m, (key, code) => {
      add(forms!, withoutConnectors(key), code);
      add(forms!, looseSectionless(key), code);
      add(forms!, looseFrontless(key), code);
    });
    this.byMunicipality[m] = forms;
    return forms;
  }
}

/**
 * Answers about a written form within some municipalities, remembered by both (by text: `1 2|form`),
 * for answers that read every name of the municipalities.
 */
function rememberedIn(answer: (form: string, municipalities: readonly number[]) => readonly number[]): (form: string, municipalities: readonly number[]) => readonly number[] {
  const answers = new Remembered((asked: string) => {
    const bar = asked.indexOf('|');
    return answer(asked.slice(bar + 1), asked.slice(0, bar).split(' ').map(Number));
  });
  return (form, municipalities) => answers.get(`${municipalities.join(' ')}|${form}`);
}

/** Adds a code to a form's codes (codes come in ascending order: each once). */
function add(forms: Map<string, number[]>, form: string, code: number): void {
  if (!form) return;
  const codes = forms.get(form);
  if (!codes) forms.set(form, [code]);
  else if (codes.at(-1) !== code) codes.push(code);
}
