/**
 * The text side of one-line addresses: what can be read from the words alone, before any
 * name is looked up. A line is cleaned, its postal-code candidates found (`C.P. 03940`, `CP
 * 64710`, any five digits standing alone), and it is cut into pieces at commas and at the
 * code; the street piece gives up its numbers (`No. 12`, `#12`, `Núm. 12`, `S/N`, `Int. 4`,
 * `Depto. 3`, `Mz. 23`, `Lt. 10`, or a number ending the street). What the pieces name
 * (state, municipality, settlement, city) is decided against the catalog, in parse.ts.
 */

/** The longest line that is read (a one-line address is far shorter; 10 MB of text is refused, not scanned). */
export const MAX_ADDRESS_CHARS = 1024;

/** Why a line holds no address to read, or undefined when it may hold one. */
export function unreadableLine(text: string): string | undefined {
  if (text.length > MAX_ADDRESS_CHARS) return `line longer than ${MAX_ADDRESS_CHARS} characters: not an address`;
  // NUL, other C0 controls than tab, and the replacement character of undecodable bytes.
  if (hasBinary(text)) return 'binary data, not text';
  if (!/[\p{L}\p{N}]/u.test(text)) return text.trim() ? 'no letters or digits: not an address' : 'empty line';
  return undefined;
}

/** Whether text holds C0 controls other than white space, or U+FFFD (bytes that did not decode). */
function hasBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) return true;
  }
  return false;
}

/** A five-digit (or four-digit, after a marker) number that may be the postal code. */
export interface CodeCandidate {
  /** The digits as written. */
  digits: string;
  /** After `C.P.`, `CP`, `Código Postal`. */
  marked: boolean;
  /** Where the candidate's text (marker included) starts and ends in the cleaned line. */
  start: number;
  end: number;
}

/** The cleaned line: one space between words, no control characters, trimmed. */
export function cleanLine(text: string): string {
  // Most lines need nothing but trimming: one scan tells.
  if (!NEEDS_CLEANING.test(text)) return text.trim();
  return text
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/\s+([,;])/g, '$1')
    // `Col.Centro`: a word glued after an abbreviation's dot (never `N.L.`: one letter).
    .replace(/\.(?=\p{Lu}\p{Ll}{2,})/gu, '. ')
    .trim();
}

const NEEDS_CLEANING = /[\t\n\r\f\v\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| [ ,;]|\.\p{Lu}\p{Ll}/u;

// A leading character class lets the engine skip ahead to each C; the word boundary before it
// is checked by the lookbehind (a letter before: `ACP 12345` is no marker).
const MARKED_CODE = /(?<![\p{L}\d])[Cc](?:\.?\s?[Pp]\.?|[óÓoO][dD](?:igo|IGO|\.)?\s?[Pp]ostal|[óÓoO][dD](?:igo|IGO)?\s?POSTAL)\s?[:.]?\s?(\d{4,5})(?!\d)/gu;
const FIVE_DIGITS = /(?<![\d#°º/-])\d{5}(?![\d/])/g;
/**
 * Words after which a number belongs to the street (exterior or interior number, km, lot...).
 * Word boundaries here and below are Unicode-aware: `\b` in a JS regex is ASCII, so it reads
 * the last `n` of `León`, `Mazatlán` or `Michoacán` as a word of its own.
 */
const NUMBER_BEFORE = /(?:(?<![\p{L}\p{N}])(?:n[oº°ú]?|n[uú]m|n[uú]mero|int|interior|ext|exterior|km|kil[oó]metro|lote?|lt|mz|mza|manzana|sm|local|piso|depto|dpto|of|oficina|tel|edif|desp|despacho|apdo|casilla|carretera|carr|ruta)\.?|#|n°|nº)\s?$/iu;

/** The code candidates of a cleaned line, in order: marked ones, then five digits standing alone. */
export function codeCandidates(line: string): CodeCandidate[] {
  const found: CodeCandidate[] = [];
  for (const match of line.matchAll(MARKED_CODE)) {
    found.push({ digits: match[1]!, marked: true, start: match.index, end: match.index + match[0].length });
  }
  for (const match of line.matchAll(FIVE_DIGITS)) {
    const start = match.index;
    if (found.some((c) => c.start <= start && start < c.end)) continue;
    // The words before are at most 13 characters; a wider window lets the word boundary see
    // the letter before them (`León 37000`: the `n` of León is no `N.` of a number).
    if (NUMBER_BEFORE.test(line.slice(Math.max(0, start - 32), start))) continue;
    found.push({ digits: match[0], marked: false, start, end: start + 5 });
  }
  return found;
}

/**
 * A road named by the towns it joins, their dash spaced (`Carr. Mixquiahuala - Tula`): one
 * street, not a street and a piece `Tula`. Only a road's first dash is joined.
 */
const ROAD_BETWEEN_TOWNS = /((?:^|[,;|])\s*(?:carretera|carr|autopista|camino|libramiento|lib)\.?\s[^,;|()]*?\p{L})\s-\s(?=\p{L})/giu;

/**
 * A code's mark without its code, which a comma took away (`MAGDALENA DE LAS SALINAS DELEG.
 * GUSTAVO A. MADERO C.P, 07760`) or a place came between (`CHIMALISTAC C.P. DEL ÁLVARO OBREGÓN
 * C.P. 01070`): at a piece's end, or before the municipality's title. No part of a name.
 */
const CODE_MARK_ALONE = /(?<![\p{L}\p{N}])C\.?\s?P\.?(?=\s*$|\s+(?:del|deleg|delegaci[oó]n|alcald[ií]a|alc|mpio|municipio)(?![\p{L}]))/giu;

/**
 * A full stop after a number, before a capital: the end of one piece and the start of the next,
 * as a comma is (`Avenida Tecnológico #100. Ciudad Guzmán, Mpio. de Zapotlán el Grande`, a
 * school's footer; `SM. 255. Cancún`). Not a number's decimals (`Km. 4.5`), nor an ordinal's dot (`1a. Sección`).
 */
const STOP_AFTER_NUMBER = /(?<=\d)\.\s+(?=\p{Lu})/gu;

/** What `ROAD_BETWEEN_TOWNS`, `CODE_MARK_ALONE` and `STOP_AFTER_NUMBER` cannot match without. */
const SPACED_DASH = /\s-\s/;
const DIGIT_STOP = /\d\.\s/;
const CODE_MARK = /C\.?\s?P/i;

/** The pieces of a line with the code's text taken out (it separates pieces, as a comma does). */
export function cutPieces(line: string, code: CodeCandidate | undefined): string[] {
  const cut = code ? `${line.slice(0, code.start)},${line.slice(code.end)}` : line;
  // Most lines hold no spaced dash and no code's mark without its code: the Unicode-aware
  // expressions, the costly ones, run only where a plain test finds what they need.
  const joined = SPACED_DASH.test(cut) ? cut.replace(ROAD_BETWEEN_TOWNS, '$1-') : cut;
  const text = DIGIT_STOP.test(joined) ? joined.replace(STOP_AFTER_NUMBER, ',') : joined;
  const pieces: string[] = [];
  for (const raw of text.split(/[,;|]|\s-\s|\(|\)/)) {
    const piece = trimPiece(CODE_MARK.test(raw) ? raw.replace(CODE_MARK_ALONE, '') : raw);
    if (/[\p{L}\p{N}]/u.test(piece)) pieces.push(piece);
  }
  return pieces;
}

/** What `trimPiece` takes off a piece's ends besides white space (a dot only in front). */
const PUNCTUATION: ReadonlySet<number> = new Set([0x2e, 0x3a, 0x3b, 0x2c, 0x2d]);

/** A piece without the punctuation around it (a final dot is kept after a short abbreviation: `N.L.`, `Jal.`). */
export function trimPiece(raw: string): string {
  let piece = raw.trim();
  // Most pieces end in a letter or digit once trimmed: the expression runs only for the others.
  // A dot after a space ends no abbreviation (`Calles #1750.`, its number taken out).
  if (piece && (PUNCTUATION.has(piece.charCodeAt(0)) || PUNCTUATION.has(piece.charCodeAt(piece.length - 1)))) piece = piece.replace(/^[\s.:;,-]+|(?:[\s:;,-]|\s\.)+$/g, '');
  if (piece.endsWith('.') && /\p{L}{5,}\.$/u.test(piece) && !/\.\p{L}+\.$/u.test(piece)) piece = piece.slice(0, -1);
  return piece;
}

/** The numbers of an address and the street that is left once they are taken out. */
export interface StreetParts {
  calle: string | null;
  numeroExterior: string | null;
  numeroInterior: string | null;
}

/**
 * A number after its word (`No. 87`, `# 624-A`, `Núm 407`, `S/N`). A letter after it is the
 * number's (`No. 12 B`), but not Yucatán's `x` of the streets it lies between (`No. 87 x 16 y 18`,
 * `# 624 X 142 Y 144`), which stays with the street.
 */
const EXTERIOR = /(?:(?<![\p{L}\p{N}])N(?:[oº°]|[uú]m(?:ero)?)\.?|#|(?<![\p{L}\p{N}])N[º°])\s?(\d+(?:\s?[-/]\s?\d+)?(?:\s?-?\s?(?!x\s?\d)[A-Z](?![\p{L}]))?|S\/N)/iu;
/**
 * No number: `S/N`, `S.N.`, `sin número`, and `sn` where no name follows it (at the piece's
 * end or before a settlement's type: `Prolongación Juárez sn`, `sn col centro`), since `Sn`
 * before a name is San (`Sn. Pedro`).
 */
const NO_NUMBER =
  /(?<![\p{L}\p{N}])S\s?\/\s?N(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])S\.N\.|(?<![\p{L}\p{N}])sin n[uú]mero(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])sn(?=\s*$|\s*,|\s+(?:col|colonia|fracc|fraccionamiento|barrio|bo|ejido|ej)(?![\p{L}\p{N}]))/iu;

/** Where a text first holds a number, or says it has none (`S/N`, `sn`); -1 when nowhere. */
export function numberStart(text: string): number {
  const digit = text.search(/\d/);
  // Every way of saying no number holds an `s`: most pieces are not searched for one.
  const none = digit === 0 || !/s/i.test(digit < 0 ? text : text.slice(0, digit)) ? -1 : text.search(NO_NUMBER);
  return none >= 0 && (digit < 0 || none < digit) ? none : digit;
}
/**
 * An interior number after its word, which ends there (`TORRES QUINTERO` is a street, not
 * `Torre S`): a number, a letter and a number (`Int. L 4`), locals joined by `y` (`Int. L 7 Y
 * 8`), a letter alone, or the ground floor; a floor by its word (`Planta Baja`, `Int. Planta Alta`:
 * `Planta Baja`, as a university's page writes it).
 */
const INTERIOR =
  /(?<![\p{L}\p{N}])(?:Int(?:erior)?\.?\s(?=Planta\s))?(Int(?:erior)?|Depto|Dpto|Departamento|Desp(?:acho)?|Local(?:es)?|Loc|Oficina|Ofna|Of|Consultorio|Suite|Piso|Edif(?:icio)?|Torre|Casa|Planta(?=\s(?:baja|alta)(?![\p{L}])))(?![\p{L}])\.?\s?([A-Z]?[\s-]?\d+[\p{L}\p{N}_-]*(?:\sy\s\d+[\p{L}\p{N}_-]*)*|[A-Z](?![\p{L}])|PB|P\.B\.|baja|alta)/iu;
/**
 * A lot's words and their numbers (`Mz. 23 Lote 10`, `Mza. 14`, `Lote 1119-33`): the longer
 * words first and whole, so `Mza. 14` is never the word `Mz` and the number `a` (the street had
 * kept the 14).
 */
const LOT = /(?<![\p{L}\p{N}])(Manzana|Mza|Mz|Lote|Lte|Lt)(?![\p{L}])\.?\s?([\p{L}\p{N}_]+(?:-\d+)?)/giu;
/** A number ending a street (`Insurgentes Sur 1602`, `Av. 5 de Mayo 12-A`), and the street before it. */
function trailingNumber(text: string): [string, string] | undefined {
  let space = text.lastIndexOf(' ');
  if (space <= 0) return undefined;
  let number = text.slice(space + 1);
  // The number's letter after a space (`Bahía del Salvador 114 A`, a page's footer in León).
  if (NUMBER_LETTER.test(number)) {
    const before = text.lastIndexOf(' ', space - 1);
    const digits = text.slice(before + 1, space);
    if (before <= 0 || !/^\d+$/.test(digits)) return undefined;
    number = `${digits}${number}`;
    space = before;
  }
  const street = text.slice(0, space);
  // A street named by its type and a number (`Calle 5`, `Calle 5 A`) has no house number in it.
  if (!NUMBER_WORD.test(number) || !LETTER.test(street) || STREET_TYPE_ONLY.test(street)) return undefined;
  // A road's kilometre is the number whole (`Carretera México-Querétaro Km 38`).
  const km = KILOMETRE_WORD.exec(street);
  return km && km.index > 0 ? [street.slice(0, km.index), `${km[0].trim()} ${number}`] : [street, number];
}

/** Whether a text ends with a house number after its words, as a street does (`San Lorenzo 153`, `Juárez 12-A`; not `51`). */
export function endsWithNumber(text: string): boolean {
  return trailingNumber(text) !== undefined;
}

/** A road's kilometre word (`Km.`, `Kilómetro`), as a pattern's source. */
const KILOMETRE = String.raw`(?:km|kil[oó]metro)\.?`;
/** A kilometre word ending a street, its number after it. */
const KILOMETRE_WORD = new RegExp(String.raw`\s${KILOMETRE}$`, 'iu');
/** A piece that begins with a road's kilometre (`KM. 38.5`, `Km 39 Carretera ...`). */
export const KILOMETRE_FIRST = new RegExp(String.raw`^${KILOMETRE}\s?\d`, 'iu');
/** A piece that is a road's kilometre alone (`KM. 38.5`, `Km 39`): the line's number. */
export const KILOMETRE_PIECE = new RegExp(String.raw`^${KILOMETRE}\s?\d+(?:[.,]\d+)?$`, 'iu');

const NUMBER_WORD = /^\d+(?:-\d+|-?[A-Z])?$/;
/** A house number's letter written apart, upper case as a letter is (never `y`, `e`, `o`, `u`, which join words). */
const NUMBER_LETTER = /^[A-DF-NP-TV-XZ]$/;
const LETTER = /\p{L}/u;
/** Interior words whose number means little without them (a floor, a local). */
const KEEP_WORD = /^(?:local|locales|loc|piso|edif|edificio|torre|casa|desp|despacho|oficina|ofna|of|consultorio|planta)$/i;

/** Reads the numbers of the street piece (as written) and what is left as the street. */
export function readStreet(piece: string): StreetParts {
  let rest = piece;
  let numeroExterior: string | null = null;
  let numeroInterior: string | null = null;
  const interior = INTERIOR.exec(rest);
  if (interior) {
    numeroInterior = KEEP_WORD.test(interior[1]!) ? `${interior[1]} ${interior[2]}` : interior[2]!;
    rest = cut(rest, interior.index, interior[0].length);
  }
  const exterior = EXTERIOR.exec(rest);
  if (exterior) {
    numeroExterior = /^s\/n$/i.test(exterior[1]!) ? 'S/N' : exterior[1]!.replace(/\s+/g, '');
    rest = cut(rest, exterior.index, exterior[0].length);
  } else if (NO_NUMBER.test(rest)) {
    numeroExterior = 'S/N';
    rest = rest.replace(NO_NUMBER, ' ');
  }
  if (!numeroExterior) {
    const lots = [...rest.matchAll(LOT)];
    if (lots.length) {
      numeroExterior = lots.map((m) => `${m[1]}${m[0].includes('.') ? '.' : ''} ${m[2]}`).join(' ');
      rest = rest.replace(LOT, ' ');
    }
  }
  if (!numeroExterior) {
    const trailing = trailingNumber(rest.trim());
    if (trailing) {
      numeroExterior = trailing[1];
      rest = trailing[0];
    }
  }
  const calle = trimPiece(rest.replace(/\s+/g, ' '));
  return { calle: /\p{L}/u.test(calle) ? calle : null, numeroExterior, numeroInterior };
}

function cut(text: string, at: number, length: number): string {
  return `${text.slice(0, at)} ${text.slice(at + length)}`;
}

/** Whether a piece reads as a street (a street word, a number word, or a number after words). */
export function looksLikeStreet(piece: string): boolean {
  return STREET_WORD.test(piece) || EXTERIOR.test(piece) || NO_NUMBER.test(piece) || trailingNumber(piece) !== undefined;
}

const STREET_WORD =
  /^(?:av|ave|avda|avenida|calle|c|cll|calz|calzada|blvd|blvr|blvrd|bulevar|boulevard|carr|carretera|cerrada|cda|cerr|privada|priv|prol|prolongacion|prolongación|circuito|cto|circ|andador|and|paseo|pso|periférico|periferico|perif|eje|viaducto|callejón|callejon|cjon|camino|libramiento|lib|retorno|ret|diagonal|vía|via|glorieta|autopista|km|kilómetro|kilometro)(?![\p{L}\p{N}])\.?/iu;
/** A street piece that is a street's type alone (`Calle`, `Av.`; a road's kilometre is a number): a number after it is the street's name. */
const STREET_TYPE_ONLY = new RegExp(String.raw`^(?!${KILOMETRE}\s*$)${STREET_WORD.source.slice(1)}\s*$`, 'iu');
