/**
 * Settlements read loosely, for the rule of codes from names: a name written with or without
 * its joining words, without its section, or without a title or `Unidad` in front (the
 * settlement matcher's `looseIndexOf` readings, core/settlement-names). Read last, where no
 * settlement of the place has the name as written. Each municipality's names are keyed so at
 * the first name read loosely in it (about 60 names each): most inputs touch few, and a
 * misspelt name costs one lookup, not a keying of the whole catalog.
 */
import type { Catalog } from '../core/catalog.js';
import { settlementKey } from '../core/names.js';
import { withoutConnectors } from '../core/name-keys.js';
import { looseFrontless, looseSectionless } from '../core/settlement-other-keys.js';

const NONE: readonly number[] = [];

export class LooseNames {
  /** By municipality: each loose form of its settlements' keys → the codes (ascending, each once) with a settlement of that form. */
  private readonly byMunicipality: (Map<string, number[]> | undefined)[];

  constructor(private readonly catalog: Catalog) {
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
    return byLoose.length ? byLoose : this.codesOf(looseFrontless(written), municipalities, state);
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

  private formsOf(m: number): Map<string, number[]> {
    let forms = this.byMunicipality[m];
    if (forms) return forms;
    forms = new Map();
    const catalog = this.catalog;
    const add = (form: string, code: number) => {
      if (!form) return;
      const codes = forms!.get(form);
      if (!codes) forms!.set(form, [code]);
      else if (codes.at(-1) !== code) codes.push(code);
    };
    const runs = catalog.codeRunsOfMunicipality(m);
    for (let r = 0; r < runs.length; r += 2) {
      for (let code = runs[r]!; code < runs[r + 1]!; code++) {
        for (let s = catalog.settlementStartOf(code), end = catalog.settlementEndOf(code); s < end; s++) {
          const key = settlementKey(catalog.settlementName(s));
          add(withoutConnectors(key), code);
          add(looseSectionless(key), code);
          add(looseFrontless(key), code);
        }
      }
    }
    this.byMunicipality[m] = forms;
    return forms;
  }
}
