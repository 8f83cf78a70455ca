/**
 * The names the catalog gives a settlement beside its own, as keys (`settlementKey`'s): its name
 * without its place in front (`Monterrey Centro` is also `centro`), without a part in
 * parentheses (`Centro (Área 1)`), and a downtown as people write it (`Zona Centro`, `Centro
 * Histórico`). The settlement matcher reads a written name by them when no settlement of the
 * code has it as its own, and the settlement index keys them, so both read them alike.
 * Also the town a settlement is (`isTownSeat`), and the loose forms of a name (without its
 * section, or a title in front: `looseSectionless`, `looseFrontless`) that the matcher and
 * codes from names (parse/loose-names) read last.
 */
import { CARDINAL_POINTS, MUNICIPALITY_LEADING_SAINTS, MUNICIPALITY_LEADING_TITLES } from './name-forms.js';
import { CONNECTORS, MIN_ONE_WORD, settlementKey, withoutConnectors } from './name-keys.js';

/**
 * The key of a settlement named after its place, without that place: `monterrey centro` in the
 * municipality of Monterrey, `nogales centro` in the municipality of Nogales, `zona centro`
 * anywhere, `saltillo zona centro` in Saltillo → `centro`; undefined for any other. A downtown
 * may also be named by the first words of its place (`jacala centro` in Jacala de Ledezma), or
 * by words that hold its place's (`villa milpa alta centro` in Milpa Alta). The catalog names
 * the downtown of about 680 codes so, and people write `Centro` or `Col. Centro` for all of them.
 * `municipalityKey` and `cityKey` are the keys of the code's municipality and city ('' for none).
 */
function localKey(key: string, municipalityKey: string, cityKey: string): string | undefined {
  // A downtown first, whatever words of its place's full name come before Centro: the
  // municipality Matamoros's *Matamoros de La Laguna Centro* is Centro, not `de la laguna centro`.
  if (placeThenDowntown(key, municipalityKey, cityKey, true)) return DOWNTOWN;
  // A downtown with its place after it, as the catalog names about 30 (*Centro de Azcapotzalco*,
  // *Centro Jiutepec*, *Centro Dolores Hidalgo* of Dolores Hidalgo Cuna de la Independencia
  // Nacional) and people write `Col. Centro` for: read as `Centro de` its place is when written.
  if (downtownOfPlace(key, municipalityKey, cityKey)) return DOWNTOWN;
  let rest = key;
  // The longer of the two when both lead it (`xalapa enriquez centro`: the city Xalapa-Enríquez,
  // not the municipality Xalapa). No array is made: the settlement index asks this of every settlement.
  const municipality = startsWithWords(key, municipalityKey) ? municipalityKey : '';
  const city = startsWithWords(key, cityKey) ? cityKey : '';
  const place = municipality.length >= city.length ? municipality : city;
  if (place) rest = key.slice(place.length + 1);
  // `Saltillo Zona Centro` is Centro too.
  if (rest.startsWith('zona ') && rest.length > 5) rest = rest.slice(5);
  // Its place after it: *Jardín Industrial Ixtapaluca* of Ixtapaluca is `Jardín Industrial`, when
  // what is left is a name of two words or more that no joining word ends (*Prados de Coyoacán*
  // is no `Prados`, *Villa Coyoacán* no `Villa`).
  if (rest === key) rest = withoutPlaceAfter(key, municipalityKey, true) ?? withoutPlaceAfter(key, cityKey, true) ?? key;
  return rest !== key ? rest : undefined;
}

/**
 * `key` without `place` (a municipality's or city's key) ending it (`fuentes del valle
 * tultitlan` in Tultitlán), else undefined. `alone`: only when what is left stands as a name
 * without its place, two words or more that no joining word ends (*Prados de Coyoacán* is no
 * `Prados`), as where it is looked up among a whole municipality's names rather than a code's.
 */
export function withoutPlaceAfter(key: string, place: string, alone = false): string | undefined {
  if (place === '' || key.length <= place.length + 1 || !key.endsWith(` ${place}`)) return undefined;
  const rest = key.slice(0, -place.length - 1);
  if (!alone) return rest;
  const last = rest.slice(rest.lastIndexOf(' ') + 1);
  return rest.includes(' ') && !CONNECTORS.has(last) ? rest : undefined;
}

/** Whether words written beside a downtown name its place: the first words of the place's key (`jacala` of Jacala de Ledezma, `startsPlace`), or words that hold all of them (`villa milpa alta` of Milpa Alta). */
function namePlace(words: string, place: string): boolean {
  return startsPlace(words, place) || (words !== '' && place !== '' && ` ${words} `.includes(` ${place} `));
}

/**
 * Whether a key is a downtown after its place. For a catalog's name (`catalog`), the words
 * before Centro are the first of the place's (`jacala centro` of Jacala de Ledezma), hold all of
 * them (`villa milpa alta centro` of Milpa Alta) or name it loosely (`namesPlaceLoosely`). For a
 * written name they are the first words of the place (`Chilpancingo de los Bravo Centro` for
 * *Chilpancingo de los Bravos Centro*), no more: a place misspelt in it (`Jacona de Planvarte
 * Centro`) is a misspelling to correct, not a downtown.
 */
function placeThenDowntown(key: string, municipalityKey: string, cityKey: string, catalog: boolean): boolean {
  if (!key.endsWith(DOWNTOWN_AFTER)) return false;
  const before = key.slice(0, -DOWNTOWN_AFTER.length);
  if (!catalog) return startsPlace(before, municipalityKey) || startsPlace(before, cityKey);
  return namePlace(before, municipalityKey) || namePlace(before, cityKey) || namesPlaceLoosely(before, municipalityKey) || namesPlaceLoosely(before, cityKey);
}

/**
 * Whether the words before a catalog downtown's `Centro` name its place otherwise than
 * `namePlace` reads: written together or apart (*Río Verde Centro* of Rioverde), without the
 * saint in front (*Tuxtepec Centro* of San Juan Bautista Tuxtepec, *Pinotepa Nacional Centro* of
 * Santiago Pinotepa Nacional), or by the place's own first word, spelled otherwise after it
 * (*Chilpancingo de los Bravos Centro* of Chilpancingo de los Bravo, *Putla de Guerrero Centro*
 * of Putla Villa de Guerrero). Ten codes name their downtown so, and none has another Centro.
 */
function namesPlaceLoosely(words: string, place: string): boolean {
  if (words === '' || place === '') return false;
  if (words.replaceAll(' ', '') === place.replaceAll(' ', '')) return true;
  const space = place.indexOf(' ');
  const first = space < 0 ? place : place.slice(0, space);
  if (MUNICIPALITY_LEADING_SAINTS.includes(first)) return place.endsWith(` ${words}`);
  return first.length >= MIN_ONE_WORD && !MUNICIPALITY_LEADING_TITLES.includes(first) && words.startsWith(`${first} `);
}

/** Whether `key` is the words of `place` and then more words. */
function startsWithWords(key: string, place: string): boolean {
  return place !== '' && key.length > place.length + 1 && key.charCodeAt(place.length) === 0x20 && key.startsWith(place);
}

/** The key of a downtown, as the catalog and people write it (`Centro`). */
export const DOWNTOWN = 'centro';
const DOWNTOWN_AFTER = ` ${DOWNTOWN}`;

/** The types of a settlement that is a whole town (the catalog's, and `Ciudad` of newer downloads). */
const TOWN_TYPES: ReadonlySet<string> = new Set(['Pueblo', 'Villa', 'Ciudad']);

/**
 * The types of a settlement that is a whole locality (INEGI's *localidad*: a town or a village,
 * not a part of one), which people name as their locality and whose heart they write `Centro`:
 * the catalog types some municipal seats so (*Pajapan*, Ranchería; *Oteapan*, Ranchería).
 */
export const LOCALITY_TYPES: ReadonlySet<string> = new Set([...TOWN_TYPES, 'Ranchería', 'Congregación', 'Poblado comunal', 'Ejido', 'Estación', 'Ingenio', 'Rancho', 'Hacienda', 'Campamento', 'Puerto']);

/**
 * Whether a settlement is its place's town itself, whose downtown the catalog does not divide
 * from it: a `Pueblo` (or `Villa`, `Ciudad`) named as its municipality or city (`Perote` of
 * Perote), or that name with its surname (`Jilotepec de Molina Enríquez` of Jilotepec) or its
 * saint (`San Miguel Zinacantepec` of Zinacantepec) or both (`Santiago Tianguistenco de
 * Galeana` of Tianguistenco), or without the place's surname (`Alto Lucero` of Alto Lucero de
 * Gutiérrez Barrios). People write `Centro` for it, or the town's name without its surname.
 */
export function isTownSeat(key: string, type: string | undefined, municipalityKey: string, cityKey: string): boolean {
  return type !== undefined && TOWN_TYPES.has(type) && namesItsPlace(key, municipalityKey, cityKey);
}

/**
 * Whether a settlement's key is its municipality's or city's name as `isTownSeat` reads it,
 * whatever the settlement's type; also with a town's title in front (`Ciudad Guadalupe
 * Victoria` of Guadalupe Victoria, `Mineral de Angangueo` of Angangueo), as INEGI names seats.
 */
export function namesItsPlace(key: string, municipalityKey: string, cityKey: string): boolean {
  const bare = withoutSurname(key);
  const names = (place: string) =>
    place !== '' &&
    (isPlaceByName(key, place) ||
      withSurname(place, key) ||
      ((key.endsWith(` ${place}`) || bare.endsWith(` ${place}`)) && MUNICIPALITY_LEADING_SAINTS.includes(key.slice(0, key.indexOf(' ')))));
  return names(municipalityKey) || names(cityKey);
}

/**
 * Whether a settlement's key is a place's own name: as written, with its surname (`ario de
 * rosales` of Ario) or with a town's title in front (`ciudad abasolo` of Abasolo); not short
 * of it, nor by a saint (`namesItsPlace` reads those too).
 */
export function isPlaceByName(key: string, place: string): boolean {
  return place !== '' && (key === place || withSurname(key, place) || TOWN_TITLES.some((title) => key === `${title}${place}` || withSurname(key, `${title}${place}`)));
}

/** Whether a key is a place's name followed by a surname, `de` or `del` and more (`ario de rosales` of Ario, `cuitzeo del porvenir` of Cuitzeo). */
export function withSurname(key: string, place: string): boolean {
  return key.startsWith(`${place} de `) || key.startsWith(`${place} del `);
}

/** Titles a town's name takes in front, as keys write them. */
const TOWN_TITLES: readonly string[] = ['ciudad ', 'villa ', 'heroica ', 'heroica ciudad de ', 'mineral de ', 'mineral del '];

/** A key up to its first `de` (`tepetlaoxtoc de hidalgo` → `tepetlaoxtoc`), or the key itself. */
function withoutSurname(key: string): string {
  const at = key.indexOf(' de ');
  return at > 0 ? key.slice(0, at) : key;
}

/**
 * Whether a written key names a town seat (`isTownSeat`) by its place's name or its own without
 * its surname, as people write it: `Tepetlaoxtoc` for *Tepetlaoxtoc de Hidalgo* (of
 * Tepetlaoxtoc), `Santiago Tianguistenco` or `Tianguistenco` for *Santiago Tianguistenco de
 * Galeana*.
 */
export function namesTownSeat(written: string, seatKey: string, municipalityKey: string, cityKey: string): boolean {
  return written !== '' && (written === municipalityKey || written === cityKey || written === withoutSurname(seatKey));
}

/** Whether a written key is a downtown's (`centro`, `zona centro`, `centro historico`, `primer cuadro`, `centro de` its place when the place's keys are given). */
export function isDowntownKey(key: string, municipalityKey = '', cityKey = ''): boolean {
  return key === DOWNTOWN || writtenDowntownKey(key, municipalityKey, cityKey) === DOWNTOWN;
}

/**
 * Other words for a town's downtown, as keys: its historic centre, its first square (*el primer
 * cuadro de la ciudad*; `nameKey` reads `Primer` as 1), and *Zona Central*, the catalog's name
 * for the downtown of La Paz (23000), which people and INE write `Col. Centro` (`zona` is read
 * with it here: a settlement named *Central* alone is no downtown).
 */
const DOWNTOWN_WORDS: ReadonlySet<string> = new Set(['centro historico', '1 cuadro', 'zona central', 'centro de la ciudad']);

/**
 * The key of a downtown as people write it beyond the catalog's names: `Zona Centro`, `Centro
 * Histórico`, `Primer Cuadro` and `Zona Central` are `centro` (`zona` before any name is set aside),
 * and so are `Centro de` its place and its place then `Centro` when the keys of the place's
 * municipality or city are given (`downtownOfPlace`, `placeThenDowntown`); undefined for any other.
 */
export function writtenDowntownKey(key: string, municipalityKey = '', cityKey = ''): string | undefined {
  let read = key.startsWith('zona ') ? key.slice(5) : key;
  if (DOWNTOWN_WORDS.has(read) || DOWNTOWN_WORDS.has(key) || downtownOfPlace(read, municipalityKey, cityKey) || placeThenDowntown(read, municipalityKey, cityKey, false)) read = DOWNTOWN;
  return read !== key && read ? read : undefined;
}

const DOWNTOWN_BEFORE = `${DOWNTOWN} `;

/**
 * Whether a key is a downtown followed by its place: `Centro de Tlalnepantla de Baz` or `Centro
 * Tlalnepantla` in Tlalnepantla de Baz, as people write it, and *Centro de Azcapotzalco*,
 * *Centro Dolores Hidalgo*, as the catalog names some. After `Centro` (and `Histórico`, `de` or
 * `del`) come the first words of the place's name, or of its name after its title (`Centro
 * Villa de García` in García). Not `Centro de Salud`, a clinic, nor *Centro SCT Aguascalientes*
 * or *Centro Comercial Puebla*, which name their place after what they are.
 */
function downtownOfPlace(key: string, municipalityKey: string, cityKey: string): boolean {
  if (!key.startsWith(DOWNTOWN_BEFORE)) return false;
  const after = key.slice(DOWNTOWN_BEFORE.length).replace(BEFORE_PLACE, '');
  const untitled = after.replace(TOWN_TITLE, '');
  const named = (place: string) => startsPlace(after, place) || (untitled !== after && startsPlace(untitled, place));
  return named(municipalityKey) || named(cityKey);
}

/** What may come between `Centro` and its place: `historico`, then `de` or `del`. */
const BEFORE_PLACE = /^(?:historico )?(?:del? )?/u;
/** A town's title before its name, which people write or leave out (`villa de garcia`). */
const TOWN_TITLE = /^(?:villa|ciudad|heroica) (?:del? )?/u;

/** Whether `words` are the first words of a place's key (`tlalnepantla` of Tlalnepantla de Baz). */
function startsPlace(words: string, place: string): boolean {
  return words !== '' && place !== '' && `${place} `.startsWith(`${words} `);
}

const PARENTHESES = /\s*\([^()]*\)/gu;

/** A name with its parts in parentheses taken out (`Centro (Área 1)` → `Centro `): keyed after, so spaces left do not count. */
export function withoutParentheses(name: string): string {
  return name.replace(PARENTHESES, ' ');
}

/** The first part of a name in parentheses (`Juchitán (Juchitán de Zaragoza)` → `Juchitán de Zaragoza`), or undefined. */
export function partInParentheses(name: string): string | undefined {
  return /\(([^()]*)\)/u.exec(name)?.[1];
}

/**
 * Whether a catalog name is the settlement a key names by its own name: its key, or its key
 * without its part in parentheses (*Guadalupe (Las Flores)* is `Guadalupe`).
 */
export function ownsName(name: string, key: string, keyOf: (text: string) => string = settlementKey): boolean {
  return keyOf(name) === key || (name.includes('(') && keyOf(withoutParentheses(name)) === key);
}

/**
 * Whether a code's names are named by a key through a part in parentheses alone, the place's
 * other name (`La Purísima` for *Familia Sosa Balderas (La Purísima)*), none by its own name
 * (`ownsName`): a reading that yields to a code whose own name the key is. Not a part that says
 * where in a place (`WHERE_IN_A_PLACE`): *Primer Cuadro (Centro)* is Los Mochis' downtown.
 */
export function namedByPartAlone(names: readonly string[], key: string, keyOf: (text: string) => string = settlementKey): boolean {
  let byPart = false;
  for (const name of names) {
    if (ownsName(name, key, keyOf)) return false;
    if (!byPart && name.includes('(')) {
      const part = partInParentheses(name);
      byPart = part !== undefined && keyOf(part) === key && !WHERE_IN_A_PLACE.test(key);
    }
  }
  return byPart;
}

/**
 * The names a catalog city is known by: its own, and for a city with a part in parentheses (13
 * of the catalog's: *Juchitán (Juchitán de Zaragoza)*, *Fray Bernardino de Sahagún (Ciudad
 * Sahagún)*, *Los Reyes Acaquilpan (La Paz)*) its name without the part and the part, which is
 * the name people use. (A settlement's part is one only where it says no place within it: `otherKeys`.)
 */
export function cityNames(city: string): string[] {
  const part = city.includes('(') ? partInParentheses(city) : undefined;
  return part ? [city, withoutParentheses(city), part] : [city];
}

/** Words of a part in parentheses that say where in a place it is, not what else it is called (keys: numbers in digits). */
const WHERE_IN_A_PLACE = new RegExp(`(?:^| )(?:${CARDINAL_POINTS.join('|')}|centro|seccion|sector|area|etapa|fraccion|parte|zona|manzana|lote|ampliacion|km|kilometro)(?: |$)|\\d`);

/**
 * The other keys a catalog name gives itself, distinct and other than `key` (the name's own):
 * the name without a part in parentheses (`Centro (Área 1)` → centro, `Los Laureles (Oriente)`
 * → los laureles: 8,630 settlements are written so) and the part alone where it is the place's
 * other name (*Revolución (Cordemex)* → cordemex; 8,023 of them), not where it says where in a
 * place (`Los Laureles (Centro)`), `localKey` of the name with and
 * without that part (`Ciudad Obregón Centro (Fundo Legal)` → centro), and a downtown's with and
 * without it (`Centro Histórico`, `Primer Cuadro (Centro)` → centro, `writtenDowntownKey`), and a
 * pueblo's colonia by its own name and with the pueblo's after it (*Dos Ríos del Pueblo Santa
 * Lucía* → dos rios, dos rios santa lucia), and an ampliación named after its place by it
 * first, as people write it (*Santiago Acahualtepec 2a. Ampliación* → 2 ampliacion santiago
 * acahualtepec, 2 ampliacion de santiago acahualtepec: 62 of the catalog's names end so), and
 * each of two names a slash joins (*Galaxia/Tabasco 2000* → galaxia, tabasco 2000). A
 * written name with one of these keys names that settlement, when none has it as its own.
 */
export function otherKeys(name: string, key: string, municipalityKey: string, cityKey: string): readonly string[] {
  // A name of one word has none (no place before it, no part in parentheses).
  if (!key.includes(' ')) return NO_KEYS;
  const local = localKey(key, municipalityKey, cityKey);
  const downtown = writtenDowntownKey(key);
  const pueblo = key.indexOf(OF_PUEBLO);
  const ampliacion = key.endsWith(AMPLIACION_LAST) ? AMPLIACION_AFTER.exec(key) : null;
  const alternatives = name.includes('/') ? NAME_OR_NAME.exec(name) : null;
  const campus = CAMPUS_NAMES.get(key);
  // Most names have none: nothing is made for them (the settlement index asks for every name).
  if (!readsText(name) && downtown === undefined && pueblo < 0 && !ampliacion && campus === undefined) return local === undefined ? NO_KEYS : [local];
  const keys: string[] = [];
  const add = (other: string | undefined) => {
    if (other && other !== key && !keys.includes(other)) keys.push(other);
  };
  if (name.includes('(')) {
    // Without its part, the name is read as any other: `Ciudad Obregón Centro (Fundo Legal)` is `Centro` in Ciudad Obregón.
    const bare = settlementKey(withoutParentheses(name));
    add(bare);
    add(localKey(bare, municipalityKey, cityKey));
    // A downtown in other words, its part saying so: *Primer Cuadro (Centro)* of Los Mochis is `Centro`.
    add(writtenDowntownKey(bare));
    // The part alone is the place's other name (*Revolución (Cordemex)* is `U.H. Cordemex`, *Morelos (La Loma)*
    // La Loma), unless it says where in a place (`Los Laureles (Oriente)`, `Centro (Área 1)`, `(2a. Sección)`,
    // its municipality or city: *Colorines (Salamanca)* is no `Col. Salamanca`).
    const part = partInParentheses(name);
    const partKey = part === undefined ? '' : settlementKey(part);
    if (partKey && !WHERE_IN_A_PLACE.test(partKey) && partKey !== municipalityKey && partKey !== cityKey) add(partKey);
  }
  add(local);
  add(downtown);
  add(campus);
  if (pueblo > 0) {
    // A colonia of a pueblo named with it (*Dos Ríos del Pueblo Santa Lucía*): by its own name, or with the pueblo's after it.
    const after = key.slice(pueblo + OF_PUEBLO.length);
    add(key.slice(0, pueblo));
    add(`${key.slice(0, pueblo)} ${afterDe(after) ?? after}`);
  }
  if (alternatives) {
    // Two names of one place (*Galaxia/Tabasco 2000*): each names it.
    add(settlementKey(alternatives[1]!));
    add(settlementKey(alternatives[2]!));
  }
  if (ampliacion) {
    // `2a. Ampliación Santiago Acahualtepec`, `Primera Ampliación de Santiago Acahualtepec`, `Ampliación El Piru`.
    const [, place, number] = ampliacion;
    const first = number ? `${number} ${AMPLIACION}` : AMPLIACION;
    add(`${first} ${place}`);
    add(`${first} de ${place}`);
  }
  return keys;
}

/**
 * Whether `otherKeys` reads a name's text and not only its key (a part in parentheses, two names
 * joined by a slash: the key keeps neither sign): the settlement index, which keys names, gives
 * it the text of these names only.
 */
export function readsText(name: string): boolean {
  return name.includes('(') || name.includes('/');
}

/**
 * A name that is two names of one place, a slash between words of letters (*Galaxia/Tabasco
 * 2000*); not a fraction or a unit's number (*Campo 27 1/2*, *Militar 38/za*), nor a type's
 * letters (*P/PROD*).
 */
const NAME_OR_NAME = /^([^/()]*\p{L}{3,})\/(\p{L}{3,}[^/()]*)$/u;

/** The key of `Ampliación` (`Amp.`, `Ampl.`) ending a name, after its place and an ordinal if any (`1ra.`, `2a.`: numbers in a key). */
const AMPLIACION = 'ampliacion';
const AMPLIACION_LAST = ` ${AMPLIACION}`;
const AMPLIACION_AFTER = /^(.+?) (?:(\d+) )?ampliacion$/;

/**
 * The key of a name written after its type with `de` between them, without the `de` (`Barrio
 * de San Martín` is the Barrio *San Martín*): the key after `de`, or undefined. Tried after the
 * name with its `de`, which some names begin with (*De Caramagüey*). Reads text as well as keys.
 */
export function afterDe(rest: string): string | undefined {
  return AFTER_DE.test(rest) ? rest.replace(LEADING_DE, '') : undefined;
}

const AFTER_DE = /^de\s+\S/iu;
const LEADING_DE = /^de\s+/iu;

/**
 * The name a campus goes by where the catalog names it by its institution: UNAM's, 04510's one
 * settlement, is *Ciudad Universitaria* on every paper and letter its people sign (`Av.
 * Universidad 3000, Ciudad Universitaria, Coyoacán, C.P. 04510`).
 */
const CAMPUS_NAMES: ReadonlyMap<string, string> = new Map([['universidad nacional autonoma de mexico', 'ciudad universitaria']]);

/** Between a colonia's name and its pueblo's, in 17 of the catalog's names (*Bejero del Pueblo Santa Fe*, *Lomas de los Ángeles del Pueblo Tetelpan*). */
const OF_PUEBLO = ' del pueblo ';

const NO_KEYS: readonly string[] = [];

/**
 * A section ending a settlement's key: `1 seccion`, `seccion 1b`, `2 etapa`, `sector 3`, a
 * section named by words (*San Miguel Teotongo Sección Guadalupe*: 298 of the catalog's
 * settlements), a cardinal point or `centro` (*Del Valle Centro*).
 */
const NAMED_SECTION = String.raw`\d+[a-z]? (?:seccion|etapa|sector)|(?:seccion|etapa|sector) \d+[a-z]?|(?:seccion|sector) [a-z]+(?: [a-z]+)*`;
const SECTION = new RegExp(`^(.+?) (?:${NAMED_SECTION}|${CARDINAL_POINTS.join('|')}|centro)$`);
/** A section named as one (`2a Sección`, `Secc. Norte`, `Etapa 3`), not a cardinal point alone: *Jardines del Sur* is no section of a *Jardines*. */
const SECTION_NAMED = new RegExp(`^(.+?) (?:${NAMED_SECTION})$`);

/**
 * A settlement's key without its section, as people write a place divided into sections
 * (`Lomas de Chapultepec` for *Lomas de Chapultepec I Sección*, `Escandón` for *Escandón II
 * Sección*, `Lindavista` for *Lindavista Norte*, `San Miguel Teotongo` for *San Miguel
 * Teotongo Sección Guadalupe*), and without its joining words; '' for a name without a
 * section. A number alone is no section (*Mirador I* is not `Mirador`).
 */
export function looseSectionless(key: string): string {
  const bare = SECTION.exec(key)?.[1];
  // A cardinal point or `centro` after a joining word is the name's own: *Villa del Sur* is no
  // section of a *Villa* (`La Villa`, Gustavo A. Madero's, was read as Tlalpan's Villa del Sur).
  if (bare === undefined || (CONNECTORS.has(bare.slice(bare.lastIndexOf(' ') + 1)) && !SECTION_NAMED.test(key))) return '';
  return withoutConnectors(bare);
}

/**
 * A written key without a section named as one (`lomas estrella` for `Lomas Estrella 2a
 * Sección`, `garcimarrero` for `Garcimarrero Secc. Norte`), and without its joining words: the
 * place people divide where the catalog does not. '' for a key without one, or when what is
 * left ends with a joining word or is one short word.
 */
export function namedSectionless(key: string): string {
  const bare = SECTION_NAMED.exec(key)?.[1];
  if (bare === undefined || CONNECTORS.has(bare.slice(bare.lastIndexOf(' ') + 1)) || (!bare.includes(' ') && bare.length < MIN_ONE_WORD)) return '';
  return withoutConnectors(bare);
}

/**
 * How a catalog key reads for a place written with a section (`namedSectionless` gave `place`):
 * `place` when it is that place undivided, `section` when it is one of the place's sections
 * (the catalog divides it: a section it lacks is no guess at another), else undefined.
 */
export function undividedReading(place: string, key: string): 'place' | 'section' | undefined {
  if (looseSectionless(key) === place) return 'section';
  return withoutConnectors(key) === place ? 'place' : undefined;
}

/** Titles of a place rather than of a person (`Heroica Ciudad de ...`, `Villa ...`). */
const PLACE_TITLES: ReadonlySet<string> = new Set(['heroica', 'heroico', 'ciudad', 'villa']);
/**
 * Words in front of a settlement's name that people leave out: a person's title of those that
 * lead municipalities' names (`General Ignacio Zaragoza`; not a place's, `Villa Coapa` is no
 * `Coapa`) or `Unidad` (`Unidad Cuitlahuac`).
 */
const LEADING_WORDS: ReadonlySet<string> = new Set([...MUNICIPALITY_LEADING_TITLES.filter((title) => !PLACE_TITLES.has(title)), 'unidad']);

/**
 * A settlement's key without what people leave out in front of it, and without its joining
 * words: a title or `Unidad` (`ignacio zaragoza` for *General Ignacio Zaragoza*, `cuitlahuac`
 * for *Unidad Cuitlahuac*); '' for a name with none, or when what is left is one short word or
 * begins with a joining word. A saint is kept: *Santiago Atzacoalco*, *C.T.M. Atzacoalco* and
 * *Nueva Atzacoalco* are three places, and `Atzacoalco` names none of them.
 */
export function looseFrontless(key: string): string {
  // The first word is looked at before any split: few names have one of these in front.
  const space = key.indexOf(' ');
  if (space < 0 || !LEADING_WORDS.has(key.slice(0, space))) return '';
  const rest = key.slice(space + 1);
  const next = rest.indexOf(' ');
  if (CONNECTORS.has(next < 0 ? rest : rest.slice(0, next)) || (next < 0 && rest.length < MIN_ONE_WORD)) return '';
  return withoutConnectors(rest);
}
