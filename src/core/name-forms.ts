/**
 * The forms people write names in, as data: state abbreviations and codes, municipality
 * titles, settlement types, shortened words and ordinals. `names.ts` reads with these tables;
 * the README lists them and `test/core/name-forms.test.ts` tests every entry. Nothing here runs at
 * import beyond building these literals: the indexes made from them are built on first use.
 */

/** The contract's aliases, by the catalog name they stand for. */
export const STATE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'Ciudad de México': ['CDMX', 'Distrito Federal'],
  México: ['Estado de México', 'Edomex'],
  'Coahuila de Zaragoza': ['Coahuila'],
  'Michoacán de Ocampo': ['Michoacán'],
  'Veracruz de Ignacio de la Llave': ['Veracruz'],
};

/** A state's catalog name followed by its aliases. */
export function stateSpellings(catalogName: string): readonly string[] {
  return [catalogName, ...(Object.hasOwn(STATE_ALIASES, catalogName) ? STATE_ALIASES[catalogName]! : [])];
}

/** One state: its INEGI key (`c_estado`), ISO 3166-2 code and the other forms people write. */
export interface StateForms {
  readonly key: number;
  /** The catalog's name (2018 and 2026 catalogs). */
  readonly name: string;
  /** ISO 3166-2:MX subdivision code without `MX-` (also read with it). */
  readonly iso: string;
  /** Abbreviations and other names, read ignoring case, accents, dots, hyphens and spaces. */
  readonly forms: readonly string[];
}

/**
 * The 32 states. A leading `Estado de` / `Edo.` and a trailing `, México` / `Mex.` are read
 * around any of these (`Edo. de Jalisco`, `Nuevo León, México`); the forms are compared with
 * dots, spaces and hyphens removed, so `N.L.`, `N. L.`, `NL` and `n.l` are one form.
 */
export const STATE_FORMS: readonly StateForms[] = [
  { key: 1, name: 'Aguascalientes', iso: 'AGU', forms: ['Ags.'] },
  { key: 2, name: 'Baja California', iso: 'BCN', forms: ['B.C.', 'B.C.N.', 'Baja California Norte', 'Baja California Nte.', 'Baja Calif.'] },
  { key: 3, name: 'Baja California Sur', iso: 'BCS', forms: ['B.C.S.', 'B.C. Sur', 'Baja Calif. Sur'] },
  { key: 4, name: 'Campeche', iso: 'CAM', forms: ['Camp.'] },
  { key: 5, name: 'Coahuila de Zaragoza', iso: 'COA', forms: ['Coah.'] },
  { key: 6, name: 'Colima', iso: 'COL', forms: ['Col.'] },
  { key: 7, name: 'Chiapas', iso: 'CHP', forms: ['Chis.', 'Chiap.'] },
  { key: 8, name: 'Chihuahua', iso: 'CHH', forms: ['Chih.'] },
  {
    key: 9,
    name: 'Ciudad de México',
    iso: 'CMX',
    forms: ['CDMX', 'Cd. de México', 'Cd. México', 'Cd. Mx.', 'Cd. de Mx.', 'Cd. de Méx.', 'Cd. Méx.', 'Ciudad de Mx.', 'México D.F.', 'D.F.', 'DIF', 'Mexico City'],
  },
  { key: 10, name: 'Durango', iso: 'DUR', forms: ['Dgo.'] },
  { key: 11, name: 'Guanajuato', iso: 'GUA', forms: ['Gto.'] },
  { key: 12, name: 'Guerrero', iso: 'GRO', forms: ['Gro.'] },
  { key: 13, name: 'Hidalgo', iso: 'HID', forms: ['Hgo.'] },
  { key: 14, name: 'Jalisco', iso: 'JAL', forms: ['Jal.'] },
  { key: 15, name: 'México', iso: 'MEX', forms: ['Edo. Méx.', 'Méx.', 'E. de Méx.'] },
  { key: 16, name: 'Michoacán de Ocampo', iso: 'MIC', forms: ['Mich.'] },
  { key: 17, name: 'Morelos', iso: 'MOR', forms: ['Mor.'] },
  { key: 18, name: 'Nayarit', iso: 'NAY', forms: ['Nay.'] },
  { key: 19, name: 'Nuevo León', iso: 'NLE', forms: ['N.L.', 'N. León', 'Nvo. León'] },
  { key: 20, name: 'Oaxaca', iso: 'OAX', forms: ['Oax.'] },
  { key: 21, name: 'Puebla', iso: 'PUE', forms: ['Pue.'] },
  { key: 22, name: 'Querétaro', iso: 'QUE', forms: ['Qro.', 'Querétaro de Arteaga', 'Querétaro Arteaga'] },
  { key: 23, name: 'Quintana Roo', iso: 'ROO', forms: ['Q. Roo', 'Q.R.'] },
  { key: 24, name: 'San Luis Potosí', iso: 'SLP', forms: ['S.L.P.', 'San Luis'] },
  { key: 25, name: 'Sinaloa', iso: 'SIN', forms: ['Sin.'] },
  { key: 26, name: 'Sonora', iso: 'SON', forms: ['Son.'] },
  { key: 27, name: 'Tabasco', iso: 'TAB', forms: ['Tab.'] },
  { key: 28, name: 'Tamaulipas', iso: 'TAM', forms: ['Tamps.', 'Tamp.', 'Tams.'] },
  { key: 29, name: 'Tlaxcala', iso: 'TLA', forms: ['Tlax.'] },
  { key: 30, name: 'Veracruz de Ignacio de la Llave', iso: 'VER', forms: ['Ver.', 'Veracruz-Llave'] },
  { key: 31, name: 'Yucatán', iso: 'YUC', forms: ['Yuc.'] },
  { key: 32, name: 'Zacatecas', iso: 'ZAC', forms: ['Zac.'] },
];

/** Words read before a state name and set aside: `Estado de Jalisco`, `Edo. Jal.`. */
export const STATE_PREFIXES: readonly string[] = ['Estado de', 'Estado', 'Edo. de', 'Edo.', 'Edo de'];
/** Words read after a state name and set aside: `Nuevo León, México`, `Jal. Mex.`, `NL, MX`. */
export const STATE_SUFFIXES: readonly string[] = ['México', 'Mex.', 'Mx', 'Rep. Mex.', 'República Mexicana'];

/**
 * Titles written before a municipality's name and set aside when the name with them matches
 * no municipality (`Del Nayar` is a municipality; `Del. Coyoacán` is the title and Coyoacán).
 */
export const MUNICIPALITY_TITLES: readonly string[] = [
  'Alcaldía',
  'Alc.',
  'Delegación',
  'Deleg.',
  'Del.',
  'Municipio de',
  'Municipio',
  'Mpio. de',
  'Mpio.',
  'Mun. de',
  'Mun.',
  'Mnpio.',
  'H. Ayuntamiento de',
];

/**
 * Words that lead a municipality's name and that people leave out (`Escobedo` for *General
 * Escobedo*, `Valles` for *Ciudad Valles*, `Ejutla` for *Heroica Ciudad de Ejutla de Crespo*),
 * as keys hold them (`Gral.` is `general`). `de` after `ciudad` or `villa` goes with them.
 */
export const MUNICIPALITY_LEADING_TITLES: readonly string[] = ['general', 'heroica', 'heroico', 'ciudad', 'villa', 'doctor', 'ingeniero', 'licenciado', 'coronel', 'profesor'];

/**
 * Words that begin a saint's name leading a municipality's (`San Pedro Tlaquepaque` is written
 * `Tlaquepaque`, `San Juan Bautista Tuxtepec` `Tuxtepec`): the saint's word and at least one
 * more (the saint's own name) are left out together.
 */
export const MUNICIPALITY_LEADING_SAINTS: readonly string[] = ['san', 'santa', 'santo', 'santiago'];

/**
 * Shortened words and their full word, read inside municipality, city and settlement names
 * (`Gral. Escobedo`, `Sta. Catarina`, `Fracc. Las Palmas`). Keys are folded (lower case, no
 * accents or dots); values are what the catalog writes, folded. `mral` is Hidalgo's Mineral de
 * la Reforma, del Monte, del Chico (`Pachuquilla, Mral. De la Reforma, Hgo.`, a health centre's
 * address); railways have their letters doubled for the plural (`Reforma y FFCCNN` is *Reforma
 * y Ferrocarriles Nacionales*); letters run together (`U.H.`, `C.H.`, `P.I.`) are read as one
 * word, then as `uh`, `ch`, `pi`. (Said here, not beside them: a comment inside the object is
 * kept in every bundle.)
 */
export const WORD_FORMS: Readonly<Record<string, string>> = {
  sta: 'santa',
  sto: 'santo',
  sn: 'san',
  stgo: 'santiago',
  secc: 'seccion',
  sec: 'seccion',
  gral: 'general',
  lic: 'licenciado',
  dr: 'doctor',
  dra: 'doctora',
  ing: 'ingeniero',
  prof: 'profesor',
  profr: 'profesor',
  profa: 'profesora',
  mtro: 'maestro',
  fco: 'francisco',
  ma: 'maria',
  gpe: 'guadalupe',
  cd: 'ciudad',
  mral: 'mineral',
  nva: 'nueva',
  nvo: 'nuevo',
  pte: 'poniente',
  ote: 'oriente',
  nte: 'norte',
  pto: 'puerto',
  ntra: 'nuestra',
  sra: 'senora',
  cnel: 'coronel',
  tte: 'teniente',
  gob: 'gobernador',
  pdte: 'presidente',
  hnos: 'hermanos',
  col: 'colonia',
  fracc: 'fraccionamiento',
  frac: 'fraccionamiento',
  fracto: 'fraccionamiento',
  fraccto: 'fraccionamiento',
  amp: 'ampliacion',
  ampl: 'ampliacion',
  unid: 'unidad',
  hab: 'habitacional',
  conj: 'conjunto',
  res: 'residencial',
  resid: 'residencial',
  cond: 'condominio',
  bo: 'barrio',
  bno: 'barrio',
  pblo: 'pueblo',
  pbo: 'pueblo',
  ej: 'ejido',
  ejd: 'ejido',
  rcho: 'rancho',
  ranch: 'rancheria',
  hda: 'hacienda',
  exhda: 'exhacienda',
  sm: 'supermanzana',
  smza: 'supermanzana',
  mz: 'manzana',
  mza: 'manzana',
  congr: 'congregacion',
  cong: 'congregacion',
  parq: 'parque',
  ind: 'industrial',
  ffcc: 'ferrocarriles',
  ffccnn: 'ferrocarriles nacionales',
  uh: 'unidad habitacional',
  ch: 'conjunto habitacional',
  pi: 'parque industrial',
};

/** The cardinal points as keys write them (`Ote.` is `oriente`): a name's section (*Lindavista Norte*) and its side (*Hidalgo Oriente*). */
export const CARDINAL_POINTS: readonly string[] = ['norte', 'sur', 'oriente', 'poniente'];

/** Ordinal words and their number: `Primera Sección` is `1a. Sección` is `1ra Secc.`. */
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  primera: 1,
  primero: 1,
  primer: 1,
  segunda: 2,
  segundo: 2,
  tercera: 3,
  tercero: 3,
  tercer: 3,
  cuarta: 4,
  cuarto: 4,
  quinta: 5,
  quinto: 5,
  sexta: 6,
  sexto: 6,
  septima: 7,
  septimo: 7,
  octava: 8,
  octavo: 8,
  novena: 9,
  noveno: 9,
  decima: 10,
  decimo: 10,
};

/**
 * Numbers written as words, read as the number: the catalog writes `5 de Mayo`, `3 Caminos`,
 * `16 de Septiembre`, and people `Cinco de Mayo`, `Tres caminos` (a real record of 67190), and
 * the other way round. `Una` and `un` are left out: they are articles as often. Each word's
 * number is its place in the list plus one: one string, which a bundle that reads no settlement
 * drops.
 */
export const CARDINAL_WORDS =
  'uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis diecisiete ' +
  'dieciocho diecinueve veinte veintiuno veintidos veintitres veinticuatro veinticinco veintiseis veintisiete veintiocho veintinueve treinta';

/** Endings of a written ordinal (`1a`, `1ra`, `1er`, `2do`, `3o`): read as the number alone. */
export const ORDINAL_ENDINGS: readonly string[] = ['a', 'o', 'ra', 'ro', 'er', 'era', 'do', 'da', 'to', 'ta', 'vo', 'va', 'no', 'na', 'mo', 'ma'];

/**
 * Every `tipo_asentamiento` of the catalog, with the forms people write it in front of a
 * settlement's name beyond the type's own name and what `WORD_FORMS` already writes out:
 * `Col.`, `FRACC`, `Bo.`, `U.H.`, `Conj. Hab.`, `Hda.` read as their type through `WORD_FORMS`
 * (docs/validate.md lists every form read, and the tests read each). `RA` is how Villahermosa's
 * own list writes a Ranchería (test/fixtures/settlement-type-forms.csv); Supermanzana is no
 * `tipo_asentamiento` of the 2018 catalog, but is written in front of names (in Cancún). Forms
 * that mean something else in an address are left out: `PB` (planta baja), `Pje.` (a pasaje).
 */
export const SETTLEMENT_TYPE_FORMS: Readonly<Record<string, readonly string[]>> = {
  Aeropuerto: ['Aerop.', 'Aeropto.'],
  Ampliación: [],
  Barrio: ['Barr.'],
  Campamento: ['Camp.'],
  'Club de golf': [],
  Colonia: ['Cols.'],
  Condominio: ['Condom.'],
  Congregación: ['Congreg.'],
  'Conjunto habitacional': ['Cto. Hab.', 'C. Hab.'],
  Ejido: ['Ejdo.'],
  Equipamiento: ['Equip.'],
  Estación: ['Est.'],
  Exhacienda: ['Exhac.'],
  Finca: ['Fca.'],
  Fraccionamiento: [],
  'Gran usuario': [],
  Granja: ['Gja.'],
  Hacienda: ['Hac.'],
  Ingenio: [],
  Paraje: [],
  'Parque industrial': ['Par. Ind.', 'Parq. Indust.'],
  'Poblado comunal': ['Poblado', 'Pob.', 'Pob. Comunal', 'Pb. Com.', 'P. Comunal'],
  Pueblo: ['Pueb.', 'Pbl.'],
  Puerto: [],
  Ranchería: ['Rancheria', 'Rcha.', 'Rchía.', 'RA', 'Rnchía.'],
  Rancho: [],
  Residencial: [],
  'Unidad habitacional': ['U. Hab.'],
  Villa: [],
  'Zona comercial': ['Zona Com.', 'Z.C.', 'Z. Comercial', 'Z. Com.', 'Zn. Com.'],
  'Zona federal': ['Zona Fed.', 'Z. Fed.', 'Z.F.'],
  'Zona industrial': ['Z.I.', 'Z. Ind.', 'Industrial', 'Z. Indust.', 'Zn. Ind.', 'Zn. Indust.'],
  'Zona militar': ['Zona Mil.', 'Z. Mil.', 'Zn. Mil.', 'Z. Militar'],
  'Zona naval': ['Zona Nav.', 'Zn. Naval', 'Zn. Nav.'],
  Supermanzana: ['Super Manzana'],
};

/**
 * Words that begin a building or a shopping centre written after a settlement's name, in the
 * same piece of an address (`COL. LOS LAURELES PLAZA LAS PALOMAS`, `COL. RAMÓN FARIAS CENTRO
 * COMERCIAL LA FUENTE`, `COL. SANTA ROSA EN LA PLAZA BUGAMBILIAS`, as INE writes its offices'
 * addresses): the words before one name the settlement. As keys hold them (folded).
 */
export const SETTLEMENT_LANDMARKS: readonly string[] = ['plaza', 'en la plaza', 'en plaza', 'centro comercial', 'local comercial', 'locales comerciales', 'mall', 'edificio', 'torre'];

/**
 * Types that distinguish a settlement rather than describe it: `Ampliación Granada` is not
 * `Granada`, so these are set aside only in front of a settlement the catalog types so.
 */
export const DISTINGUISHING_TYPES: readonly string[] = ['Ampliación'];
