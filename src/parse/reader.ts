/**
 * One-line addresses, read: `Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito
 * Juárez, 03940 Ciudad de México, CDMX` cut at commas and at the code (address-text.ts), each
 * piece then read, from the last to the first, as a state, a municipality, a city or a
 * settlement, with the one reading of names of the core. The facts of the code, when there is
 * one, are tried first. Only reading here: judging what was read is validation's
 * (validate/parse.ts), by the one validator of records.
 */
import type { Catalog } from '../core/catalog.js';
import { afterDe, foldForMatch, isDowntownKey, isTypeAlone, nameKey, settlementKey, settlementMatcherOf, splitSettlementType, stateSpellings } from '../core/names.js';
import { ownCopy } from '../core/own-copy.js';
import { Remembered } from './remembered.js';
import { cleanLine, codeCandidates, cutPieces, endsWithNumber, KILOMETRE_FIRST, KILOMETRE_PIECE, looksLikeStreet, numberStart, readStreet, unreadableLine, type CodeCandidate } from './address-text.js';
import { placeFinderOf, type PlaceFinder } from './places.js';

/** A line read: what its pieces name, the code as written (null when none) and its index (-1 when the catalog lacks it). */
export interface LineReading {
  reading: Reading;
  written: string | null;
  code: number;
}

/** What the pieces of a line were read as. */
export interface Reading {
  state: number;
  /** The state's text as written. */
  stateText: string | null;
  municipalities: readonly number[];
  municipalityText: string | null;
  settlementText: string | null;
  settlementName: string | null;
  settlementType: string | null;
  cityText: string | null;
  /** The municipalities of the city read, for a line without a code (the places it narrows the settlement to when no municipality is written). */
  cityMunicipalities: readonly number[];
  calle: string | null;
  numeroExterior: string | null;
  numeroInterior: string | null;
  /** Pieces read as nothing (`Polanco` in `Colonia Chapultepec, Polanco 11560`): the judge tries them as the code's settlement when the one read is not. */
  unread: string[];
}

/** Country words that may end a line after the state. */
const COUNTRY = new Set(['mexico', 'mx', 'mex', 'republica mexicana', 'estados unidos mexicanos']);
/** The longest run of words tried as a state or municipality at the end of a piece. */
const MAX_NAME_WORDS = 6;

export class AddressReader {
  private readonly finder: PlaceFinder;
  private readonly types = new Remembered(splitSettlementType);
  private readonly keys = new Remembered(settlementKey);
  /** The settlement index of a code that a text names, or -1: by code, then by text. */
  private readonly codeSettlements = new Map<number, Map<string, number>>();
  private codeSettlementCount = 0;
  /** A code's municipality, city and state spellings, folded (made once per code). */
  private readonly codeNameLists = new Map<number, [string, string, string[]]>();

  constructor(readonly catalog: Catalog) {
    this.finder = placeFinderOf(catalog);
  }

  private codeNames(code: number): [string, string, string[]] {
    let names = this.codeNameLists.get(code);
    if (!names) {
      const catalog = this.catalog;
      names = [foldForMatch(catalog.municipalityOf(code)), foldForMatch(catalog.cityOf(code)), stateSpellings(catalog.stateOf(code)).map(foldForMatch)];
      this.codeNameLists.set(code, names);
    }
    return names;
  }

  private municipalitiesNamed(name: string, state: number): readonly number[] {
    return this.finder.municipalities(name, state);
  }

  /** The settlement index of code `code` that `text` names (the catalog's spelling found by the core), or -1. */
  settlementOf(code: number, text: string): number {
    let byText = this.codeSettlements.get(code);
    if (!byText) this.codeSettlements.set(code, (byText = new Map()));
    let found = byText.get(text);
    if (found === undefined) {
      found = matchSettlement(this.catalog, code, text);
      // Bounded: forgotten whole when full; texts longer than any name are never kept.
      if (text.length <= 256) {
        if (++this.codeSettlementCount > 50_000) {
          this.codeSettlements.clear();
          this.codeSettlementCount = 0;
          this.codeSettlements.set(code, byText);
        }
        byText.set(ownCopy(text), found);
      }
    }
    return found;
  }

  /** The settlement index of code `code` that `text` names loosely (without joining words, section or title: `SettlementMatcher.looseIndexOf`), or -1: asked once validation has taken it. */
  looseSettlementOf(code: number, text: string): number {
    const found = settlementMatcherOf(this.catalog, code).looseIndexOf(text);
    return found < 0 ? -1 : this.catalog.settlementStartOf(code) + found;
  }

  /** Whether `name` is the city of code `code` (which has one). */
  isCityOf(code: number, name: string): boolean {
    const city = this.catalog.cityOf(code);
    return city !== '' && this.keys.get(name) === this.keys.get(city);
  }

  /**
   * Reads a line into its parts: the code written (its digits as written, and its index when
   * the catalog has it, a lost leading zero put back) and what each piece names. A string is
   * the reason the line holds no address.
   */
  read(text: unknown): LineReading | string {
    if (typeof text !== 'string') return text === null || text === undefined ? 'empty line' : 'not text';
    const reason = unreadableLine(text);
    if (reason) return reason;
    const line = cleanLine(text);
    const candidate = this.chooseCode(line);
    const written = candidate?.digits ?? null;
    // A code that lost its leading zero is read with it (the validator says so: 102 and its suggestion).
    const lookup = written && written.length === 4 ? `0${written}` : written;
    const code = lookup ? this.catalog.codeIndex(lookup) : -1;
    return { reading: this.readPieces(cutPieces(line, candidate), code), written, code };
  }

  /** The code indices that fit a line without a code: the rule of codes from names (parse/places), as validation uses it. */
  codesOf(reading: Reading): readonly number[] {
    const settlement = reading.settlementName !== null ? reading.settlementText : null;
    if (reading.municipalities.length === 0 && reading.cityText !== null && reading.cityMunicipalities.length) {
      const byCity = this.finder.codesInCity(settlement, reading.cityText, reading.cityMunicipalities, reading.state);
      if (byCity.length) return byCity;
    }
    return this.finder.codesNamed(settlement, reading.municipalities, reading.state);
  }

  /** The code of a line: a marked one first, then five digits that are a code, the context agreeing. */
  private chooseCode(line: string): CodeCandidate | undefined {
    const candidates = codeCandidates(line);
    if (candidates.length === 0) return undefined;
    // The common case: one code, written after `C.P.`.
    if (candidates.length === 1 && candidates[0]!.marked) return candidates[0];
    const firstComma = line.indexOf(',');
    let best: CodeCandidate | undefined;
    let bestScore = -1;
    let folded: string | undefined;
    let keyed: string | undefined;
    for (const candidate of candidates) {
      const digits = candidate.digits.length === 4 ? `0${candidate.digits}` : candidate.digits;
      const code = this.catalog.codeIndex(digits);
      let agreement = code >= 0 ? this.agreement(code, (folded ??= foldForMatch(line))) : 0;
      // Else the code's municipality or city written short (`Cd. Obregón` for *Ciudad Obregón*), as its words are read.
      if (code >= 0 && agreement === 0) agreement = this.keyedAgreement(code, (keyed ??= ` ${nameKey(line)} `));
      if (!candidate.marked && code < 0) continue;
      // Five digits in the first piece are a street number unless the names agree with the code
      // (`COL DEL CARMEN 64710 MONTERREY`), or they end a line without commas.
      const inFirstPiece = firstComma < 0 || candidate.start < firstComma;
      const after = line.slice(candidate.end);
      // (A country word after them ends the line too: `64000 México`.)
      const endsLine = firstComma < 0 && (!/[\p{L}\p{N}]/u.test(after) || COUNTRY.has(foldForMatch(after)));
      if (!candidate.marked && inFirstPiece && agreement === 0 && !endsLine) continue;
      const score = (candidate.marked ? 1000 : 0) + (code >= 0 ? 100 : 0) + agreement * 10 + (inFirstPiece ? 0 : 1);
      if (score >= bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    return best;
  }

  /** How many of a code's names (state, municipality, city) a folded line holds. */
  private agreement(code: number, foldedLine: string): number {
    const [municipality, city, states] = this.codeNames(code);
    let count = 0;
    if (municipality && foldedLine.includes(municipality)) count++;
    if (city && city !== municipality && foldedLine.includes(city)) count++;
    if (states.some((state) => foldedLine.includes(state))) count++;
    return count;
  }

  /** Whether a line read into words (`nameKey`, between spaces) holds the words of a code's municipality or city: 1 or 0. */
  private keyedAgreement(code: number, keyedLine: string): number {
    const catalog = this.catalog;
    const municipality = nameKey(catalog.municipalityOf(code));
    const city = nameKey(catalog.cityOf(code));
    return (municipality && keyedLine.includes(` ${municipality} `)) || (city && keyedLine.includes(` ${city} `)) ? 1 : 0;
  }

  /** Reads the pieces of a line (the code already taken out), with the facts of `code` when it is one. */
  private readPieces(pieces: string[], code: number): Reading {
    const catalog = this.catalog;
    const reading: Reading = {
      state: -1,
      stateText: null,
      municipalities: [],
      municipalityText: null,
      settlementText: null,
      settlementName: null,
      settlementType: null,
      cityText: null,
      cityMunicipalities: [],
      calle: null,
      numeroExterior: null,
      numeroInterior: null,
      unread: [],
    };
    const codeState = code >= 0 ? catalog.stateOfMunicipality(catalog.municipalityIndexOf(code)) : -1;
    // A country word ending the line goes when the line names a state before it, or when it is
    // not the code's state (`22400 Tijuana, México`: México the country, not the state of México).
    if (pieces.length && COUNTRY.has(foldForMatch(pieces.at(-1)!))) {
      const notCodesState = codeState >= 0 && this.stateNamed(pieces.at(-1)!) !== codeState;
      if (notCodesState || pieces.slice(0, -1).some((piece) => this.endsWithState(piece))) pieces = pieces.slice(0, -1);
    }
    // Nothing but the code (`C.P. 64000`): the code says the rest.
    if (pieces.length === 0) return reading;

    // Numbers written apart (`Mz. 23, Lote 10`, `Interior 402`) are no names, nor the streets a
    // place is at the corner of or between (`esq. Cd Xamíltepec 113-7`, `entre Juárez y Allende`).
    const roles: (string | undefined)[] = pieces.map((piece, i) => (i === 0 ? undefined : NUMBER_PIECE.test(piece) || BARE_NUMBER.test(piece) || KILOMETRE_FIRST.test(piece) ? 'numbers' : CROSSING_PIECE.test(piece) ? 'crossing' : undefined));
    // A settlement's type with no name after it (`Col. .`, a form's empty field) names nothing.
    for (let i = 1; i < pieces.length; i++) if (roles[i] === undefined && isTypeAlone(pieces[i]!)) roles[i] = 'empty';
    // Settlements with their type in front, and a settlement glued after a street's number.
    for (let i = 0; i < pieces.length; i++) {
      if (roles[i] === 'empty') continue;
      // A corner's street may have the settlement glued after it too (`esq. Av. Domingo Diez Col. Lomas de la Selva`).
      const split = this.splitGluedSettlement(pieces[i]!, roles[i] === 'crossing');
      if (split) {
        pieces.splice(i, 1, split[0], split[1]);
        roles.splice(i, 1, roles[i], 'settlement');
        i++;
      } else if (this.typedSettlement(pieces[i]!, i === 0 && pieces.length > 1) && !this.isName(pieces[i]!, code, codeState)) roles[i] = 'settlement';
      else continue;
      // `SM 36 Mz. 2 Lt 2`, `Av. Nader No. 8 SM. 5 MZA. 03`: the lot's numbers are no part of the
      // settlement's name, nor is a missing number's `S/N` (`Col. Leyes de Reforma S/N`).
      const lot = LOT_IN_TEXT.exec(pieces[i]!);
      if (lot && lot.index > 0) {
        pieces.splice(i, 1, pieces[i]!.slice(0, lot.index).trim(), pieces[i]!.slice(lot.index));
        roles.splice(i + 1, 0, 'numbers');
        i++;
      }
      // `Col. Las Flores Esq. Calle Gardenia`: the corner written after the settlement is no part
      // of its name (asked of the settlement's piece, not of lot numbers cut from it above).
      const corner = CORNER_IN_TEXT.exec(pieces[i]!);
      if (corner && roles[i] === 'settlement') {
        pieces.splice(i, 1, pieces[i]!.slice(0, corner.index).trim(), pieces[i]!.slice(corner.index + 1));
        roles.splice(i + 1, 0, 'crossing');
        i++;
      }
    }
    let street = -1;
    if (roles[0] === undefined && (looksLikeStreet(pieces[0]!) || (pieces.length > 1 && !this.isName(pieces[0]!, code, codeState)))) {
      street = 0;
      roles[0] = 'street';
    }

    // Names, from the last piece to the first: the state usually ends the line. A piece right
    // after the street may be a settlement without its type (`Puebla 121, Roma Norte, ...`).
    const typed = roles.includes('settlement');
    // A typed settlement other than a downtown: no other piece is a settlement then (a downtown
    // may be a town's the line names after it: `Col Centro, Pachuquilla, Mral. De la Reforma`).
    const typedName = roles.some((role, i) => role === 'settlement' && !isDowntownKey(this.keys.get(this.types.get(pieces[i]!).name)));
    for (let i = pieces.length - 1; i >= 0; i--) {
      if (roles[i] === 'settlement') {
        if (!this.isOwnSettlement(code, pieces[i]!, reading)) pieces[i] = this.readName(pieces[i]!, reading, code, codeState, false, true).rest;
      } else if (roles[i] === undefined) roles[i] = this.readName(pieces[i]!, reading, code, codeState, !typed && i === nextName(roles, street), false, typedName).role;
    }
    // The settlement: typed in front, or matched to the code's settlements.
    for (let i = 0; i < pieces.length; i++) {
      // A second typed settlement is tried too when the first is not the code's (`Fraccionamiento Las Batuecas, Colonia Termoelectrica`, 85430's).
      if (roles[i] === 'unknown' || (roles[i] === 'settlement' && reading.settlementText !== null)) reading.unread.push(pieces[i]!);
      if (roles[i] !== 'settlement' || reading.settlementText !== null) continue;
      this.takeSettlement(pieces[i]!, reading);
    }
    // A street whose number names follow, none typed (`Calle Hidalgo 538 San Simón, Texcoco`; a
    // line without commas, `Av. Juárez 363 Chilixtlahuaca Metlatónoc Guerrero`): they are read.
    if (street >= 0 && reading.settlementText === null) {
      const after = this.namesAfterNumber(pieces[street]!, reading, code, codeState);
      if (after) {
        pieces[street] = after.street;
        Object.assign(reading, after.reading);
      }
    }
    if (street >= 0) Object.assign(reading, streetOf(readStreet(pieces[street]!)));
    // Numbers written apart (`Mz. 23, Lote 10`, `No. 14785 local 36`).
    for (let i = 0; i < pieces.length; i++) {
      if (roles[i] !== 'numbers') continue;
      const numbers = readStreet(pieces[i]!);
      // A road's kilometre is its place's number (`Carr. México-Texcoco, Km. 25.5`), and so is a
      // number alone right after the street (`Benito Juárez, 396-9`; after `Locales 48`, `49` is one more local).
      const exterior = numbers.numeroExterior ?? (KILOMETRE_PIECE.test(pieces[i]!) || (BARE_NUMBER.test(pieces[i]!) && street >= 0 && i === street + 1) ? pieces[i]!.trim() : null);
      // Lots add up (`Mz. 23, Lote 10`); any other number keeps the first one read.
      if (exterior && reading.numeroExterior && LOT_WORD.test(exterior) && LOT_WORD.test(reading.numeroExterior)) reading.numeroExterior += ` ${exterior}`;
      else if (!reading.numeroExterior && exterior) reading.numeroExterior = exterior;
      if (!reading.numeroInterior && numbers.numeroInterior) reading.numeroInterior = numbers.numeroInterior;
    }
    return reading;
  }

  /**
   * Splits `Calle Hidalgo No. 103 Col. Centro` into the street and the settlement, or
   * undefined (`street`: the piece is a street whatever its words, a corner's). Without a
   * number, a street of more than its street word is split only before a settlement's type
   * written as people mark one mid-line (`Calle Agustín Melgar Col. Centro`, `Av. Juárez Fracc.
   * Las Palmas`): an abbreviation with its dot, or `Colonia`; a type word written whole may be
   * the street's own name (`Av. Barrio Alto`). So is a building written before the settlement
   * (`Torre San Mateo Col. El Refugio Campestre`).
   */
  private splitGluedSettlement(piece: string, street = false): [string, string] | undefined {
    // Where the piece's number is (`No. 103`, `S/N`, `sn`): a split after it has the number before it.
    const number = numberStart(piece);
    const numbered = number >= 0;
    if (!numbered && !street && !looksLikeStreet(piece) && !BUILDING_FIRST.test(piece)) return undefined;
    for (let at = piece.indexOf(' '); at > 0; at = piece.indexOf(' ', at + 1)) {
      const before = piece.slice(0, at);
      const rest = piece.slice(at + 1);
      // After a number, any type; in a line without one, only a type marked as one, after more than the street's word.
      if (!(numbered && number < at) && (numbered || !before.includes(' ') || !MARKED_TYPE.test(rest))) continue;
      const split = this.types.get(rest);
      if (split.type && /\p{L}|\d/u.test(split.name)) return [before, rest];
    }
    return undefined;
  }

  /**
   * The street up to its number and the reading with the names after that number, when they
   * end in a settlement (of the code; without one, of the place the line names): `Calle Hidalgo
   * 538 San Simón` is *San Simón* of Texcoco when the line says Texcoco. A street named by a
   * number (`Calle 5 de Mayo 158 Santa Bárbara`) is tried at each number; undefined when no
   * split reads so, and the reading is then as it was.
   */
  private namesAfterNumber(piece: string, reading: Reading, code: number, codeState: number): { street: string; reading: Reading } | undefined {
    const words = piece.split(' ');
    for (let j = 1; j < words.length - 1; j++) {
      if (!INNER_NUMBER.test(words[j]!)) continue;
      const rest = words.slice(j + 1).join(' ');
      if (!/\p{L}/u.test(rest)) continue;
      const trial: Reading = { ...reading, unread: [...reading.unread] };
      if (this.readName(rest, trial, code, codeState, true).rest !== '' || trial.settlementText === null) continue;
      const settlement = trial.settlementText;
      const named =
        code >= 0
          ? this.settlementOf(code, settlement) >= 0
          : (trial.municipalities.length > 0 || trial.state >= 0) && this.finder.settlementCodes(settlement, trial.municipalities, trial.state, false).length > 0;
      if (named) return { street: words.slice(0, j + 1).join(' '), reading: trial };
    }
    return undefined;
  }

  /**
   * Whether a typed settlement's piece is, whole, a settlement by its own name: of the code, or
   * without one, of the municipality read after it. Its last words are then no place peeled off
   * it (`Fracc. Lomas Xalisco` is Xalisco's *Lomas Xalisco*, `Col. Estado de Mexico,
   * Nezahualcoyotl` Nezahualcóyotl's *Estado de México*, `Fracc. Jardines de Tala`).
   */
  private isOwnSettlement(code: number, piece: string, reading: Reading): boolean {
    const { name } = this.types.get(piece);
    if (code >= 0) return settlementMatcherOf(this.catalog, code).ownNameIndexOf(name) >= 0;
    return reading.municipalities.length > 0 && this.finder.codesOfName(name, reading.municipalities).length > 0;
  }

  /**
   * Whether a piece is a settlement with its type in front. A first piece (`first`, of more)
   * whose name ends with a number after words is the street (`RANCHO SAN LORENZO 153,
   * GIRASOLES, ...`), whatever word leads it; a name that is a number is not (`Sm. 51, Mz. 23`).
   */
  private typedSettlement(piece: string, first: boolean): boolean {
    const { type, name } = this.types.get(piece);
    return type !== null && !(first && endsWithNumber(name));
  }

  /** Whether a piece names a state, whole or by its last words (`Ciudad de México, CDMX`, `Monterrey N.L.`). */
  private endsWithState(piece: string): boolean {
    const words = piece.split(' ');
    for (let k = Math.min(words.length, 4); k >= 1; k--) if (this.stateNamed(words.slice(words.length - k).join(' ')) >= 0) return true;
    return false;
  }

  /** Whether a whole piece names the code's state, municipality or city, or any state. */
  private isName(piece: string, code: number, codeState: number): boolean {
    const catalog = this.catalog;
    if (this.stateNamed(piece) >= 0) return true;
    if (code >= 0) {
      const folded = foldForMatch(piece);
      if (folded === foldForMatch(catalog.municipalityOf(code)) || folded === foldForMatch(catalog.cityOf(code))) return true;
    }
    return this.municipalitiesNamed(piece, codeState).length > 0;
  }

  /**
   * Reads one piece as names (state, municipality, city, settlement), peeling them from its
   * end (`Ensenada B.C.`, `Centro Tuxtla Gutiérrez Chiapas`); what is left, if anything, is
   * the piece's own text. A typed settlement (`Col. Centro Atlapexco`) gives up only places;
   * `typedAhead`: the line has a typed settlement, so no other piece is taken as one.
   */
  private readName(piece: string, reading: Reading, code: number, codeState: number, afterStreet: boolean, settlement = false, typedAhead = false): { role: string; rest: string } {
    let rest = piece;
    let role = 'unknown';
    let peeledState = false;
    while (rest) {
      // Where each word starts: the names tried are the piece's ends, cut without arrays.
      const starts = [0];
      for (let at = rest.indexOf(' '); at >= 0; at = rest.indexOf(' ', at + 1)) starts.push(at + 1);
      const count = starts.length;
      let taken = false;
      // A settlement keeps at least its type and one word of name.
      const least = settlement ? Math.min(count, 2) : 0;
      for (let k = Math.min(count - least, MAX_NAME_WORDS); k >= 1 && !taken; k--) {
        const from = starts[count - k]!;
        const taking = this.takeName(from === 0 ? rest : rest.slice(from), reading, code, codeState, k !== count, typedAhead);
        if (taking) {
          role = taking;
          // `en la` before a place is no part of the name before it (`Col. Granada en la Delegación Miguel Hidalgo`).
          rest = rest.slice(0, from).replace(/[\s,.-]+$/, '').replace(IN_PLACE, '');
          taken = true;
        }
      }
      // A typed settlement gives up one place, or a state and then one more (`col centro zimapan hgo.`).
      if (!taken || (settlement && (role !== 'state' || peeledState))) break;
      if (role === 'state') peeledState = true;
    }
    // A piece right after the street that names nothing else is the settlement, without its
    // type, unless it is a street too (`Corregidora No. 500 (calle 40)`).
    if (!settlement && rest === piece && afterStreet && reading.settlementText === null && !looksLikeStreet(piece)) {
      this.takeSettlement(piece, reading);
      return { role: 'settlement', rest: '' };
    }
    return { role: rest && !settlement ? 'unknown' : role, rest };
  }

  /**
   * Takes `name` as the first part it can be; the part's role, or undefined. A part of a piece
   * (`partial`) is taken only as one of the code's own places when there is a code; without
   * one, no piece is taken as the settlement when the line has a typed one (`typedAhead`).
   */
  private takeName(name: string, reading: Reading, code: number, codeState: number, partial: boolean, typedAhead = false): string | undefined {
    const catalog = this.catalog;
    if (!foldForMatch(name)) return undefined;
    if (code >= 0) {
      // The code's own facts first: its state, municipality, city, settlements.
      if (reading.stateText === null && this.stateNamed(name) === codeState) {
        reading.state = codeState;
        reading.stateText = name;
        return 'state';
      }
      const municipality = catalog.municipalityIndexOf(code);
      if (reading.municipalityText === null && this.municipalitiesNamed(name, codeState).includes(municipality)) {
        reading.municipalities = [municipality];
        reading.municipalityText = name;
        return 'municipality';
      }
      if (reading.cityText === null && this.isCityOf(code, name)) {
        reading.cityText = name;
        return 'city';
      }
      if (partial) return undefined;
      if (reading.settlementText === null && this.settlementOf(code, name) >= 0) {
        this.takeSettlement(name, reading);
        return 'settlement';
      }
    }
    const state = this.stateNamed(name);
    // Not a state other than the municipality's read already: `Col. Vicente Guerrero, Santiago Tulantepec de Lugo Guerrero` (Hidalgo) ends in no state.
    if (state >= 0 && reading.stateText === null && (reading.municipalities.length === 0 || reading.municipalities.some((m) => catalog.stateOfMunicipality(m) === state))) {
      reading.state = state;
      reading.stateText = name;
      return 'state';
    }
    if (reading.municipalityText === null) {
      const inState = reading.state >= 0 ? reading.state : codeState;
      const municipalities = this.municipalitiesNamed(name, inState);
      if (municipalities.length) {
        reading.municipalities = municipalities;
        reading.municipalityText = name;
        return 'municipality';
      }
    }
    // A state named twice (`Ciudad de México, CDMX`): the city, or nothing more.
    if (state >= 0 && state === reading.state) return 'state';
    if (partial) return undefined;
    // A city of the state (`Los Mochis`, in Ahome), before a settlement of its name: the places it is in narrow the settlement's codes.
    if (reading.cityText === null && code < 0) {
      const municipalities = this.finder.cityMunicipalities(name, reading.state);
      if (municipalities.length) {
        reading.cityText = name;
        reading.cityMunicipalities = municipalities;
        return 'city';
      }
    }
    // Without a code, a piece without a type is the settlement only where the line has no typed one
    // (`Colonia Lindavista, Delegación Gustavo A. Madero, México, Distrito Federal`: México is no colonia there).
    if (reading.settlementText === null && code < 0 && !typedAhead && this.finder.hasPlaces(this.keys.get(name), reading.municipalities, reading.state)) {
      this.takeSettlement(name, reading);
      return 'settlement';
    }
    return undefined;
  }

  /**
   * The state a name names (a final dot set aside when needed: `Nuevo Leon.`), or -1. A number
   * alone names none in a line (`Nivel 1` is a floor, not Aguascalientes, whose INEGI key is 1),
   * though a record's state field may be written by its key.
   */
  private stateNamed(name: string): number {
    return LETTER.test(name) ? this.finder.state(name) : -1;
  }

  private takeSettlement(written: string, reading: Reading): void {
    // `en la colonia Arboledas 1ª Sección`: the words that lead to a typed settlement are no part of it.
    const inFront = IN_FRONT.exec(written);
    const text = inFront && this.types.get(written.slice(inFront[0].length)).type ? written.slice(inFront[0].length) : written;
    const { type, name } = this.types.get(text);
    reading.settlementText = text;
    // The type's `de` is no part of the name (`EXHACIENDA DE COAPA` is the Exhacienda *Coapa*, not `DE COAPA`); `del` is (*Del Valle*).
    reading.settlementName = (type && afterDe(name)) || name;
    reading.settlementType = type;
  }
}

/** A building written before a settlement in one piece (`Torre San Mateo Col. El Refugio Campestre`, León). */
const BUILDING_FIRST = /^(?:torre|edificio|edif\.|plaza|centro comercial)\s/iu;
/** A street's number inside a piece, with names after it: `538`, `12-A`, `#103`, `45B`. */
const INNER_NUMBER = /^#?\d+(?:-?[A-Za-z])?(?:-\d+)?$/;
/** A piece naming the streets at a corner or on both sides (`esq. Hidalgo`, `Esquina con Juárez`, `casi esq. ...`, `entre ... y ...`). */
const CROSSING_PIECE = /^(?:esq(?:\.|uina(?![\p{L}\p{N}])|(?![\p{L}\p{N}]))|casi\s+esq|entre\s)/iu;
/**
 * A piece that starts with a number's word: `No. 14785 ...`, `Int. 4`, `Mz. 23`, `Lote 10`, `S/N`,
 * `Consultorio 201`, `Despacho 5`, `Suite A114`; a building or a tower by its letter or number alone (`Edificio D`, `Torre C`:
 * *Edificio Cartagena* is a settlement); a floor (`planta baja`, `1er. PISO CENTRO COMERCIAL PAVILION`,
 * `cuarto piso del Edificio del Poder Ejecutivo`); or a road's kilometre: `KILOMETRE_FIRST`.
 */
const NUMBER_PIECE =
  /^(?:no\.?\s?\d|n[uú]m|#|int(?![\p{L}\p{N}])|int\.|interior|depto|dpto|departamento|local|consultorio|despacho|suite|piso|mz|mza|manzana|lt(?![\p{L}\p{N}])|lt\.|lte|lote|s\/n|(?:edif(?:icio)?\.?|torre)\s?(?:[a-z]|\d+)(?:\s+planta\s(?:baja|alta))?\s*$|planta\s(?:baja|alta)(?![\p{L}])|(?:\d+\s?(?:er|ro|do|to|vo|mo|no|o|°|º)?\.?|primer|segundo|tercer|cuarto|quinto|sexto|s[eé]ptimo|octavo|noveno|d[eé]cimo)\s+piso(?![\p{L}])(?!\.?\s*\d))/iu;

/** A piece that is a number alone, the street's number written apart (`Benito Juárez, 396-9, ...`, `15-B`, `12 A`). */
const BARE_NUMBER = /^\d+(?:[-/]\d+)*(?:[-\s]?[a-z])?\s*$/iu;

/** `en`, `en la`, `en el` ending the words before a place, with the place's title (`en la ciudad de Veracruz`). */
const IN_PLACE = /\s+en(?:\s+(?:la|el))?(?:\s+(?:ciudad|municipio|localidad|poblaci[oó]n|delegaci[oó]n|alcald[ií]a)(?:\s+de)?)?$/iu;

/** `en`, `en la`, `en el` in front of a settlement's type (`en la colonia Arboledas`). */
const IN_FRONT = /^en\s+(?:(?:la|el)\s+)?/iu;

/** A settlement's type as it is marked inside a line: abbreviated with its dot (`Col.`, `Fracc.`, `U.H.`), or `Colonia`. */
const MARKED_TYPE = /^(?:[\p{L}.]*\p{L}\.|colonia)\s/iu;

const LOT_WORD = /^(?:mz|mza|manzana|lt|lte|lote)(?![\p{L}\p{N}])/iu;
/** Any letter: a name without one is a number, which names no state in a line. */
const LETTER = /\p{L}/u;
/** A corner written after a name with its dot or its `con` (`Esq. Calle Gardenia`, `esquina con Juárez`): a settlement's name may hold the word (*La Esquina*). */
const CORNER_IN_TEXT = /\s(?:esq\.|esquina\s+con(?![\p{L}\p{N}]))/iu;
const LOT_IN_TEXT = /(?<![\p{L}\p{N}])(?:(?:mz|mza|manzana|lt|lte|lote)\.?\s?\d|s\s?\/\s?n(?![\p{L}\p{N}]))/iu;

/** The first piece after `street` that no role was given yet (the settlement's usual place). */
function nextName(roles: readonly (string | undefined)[], street: number): number {
  for (let i = street + 1; i < roles.length; i++) if (roles[i] === undefined) return i;
  return -1;
}

/** The settlement index of code `code` that `text` names (the catalog's spelling found by the core), or -1. */
function matchSettlement(catalog: Catalog, code: number, text: string): number {
  const found = settlementMatcherOf(catalog, code).indexOf(text);
  return found < 0 ? -1 : catalog.settlementStartOf(code) + found;
}

function streetOf(parts: ReturnType<typeof readStreet>): Pick<Reading, 'calle' | 'numeroExterior' | 'numeroInterior'> {
  return { calle: parts.calle, numeroExterior: parts.numeroExterior, numeroInterior: parts.numeroInterior };
}

