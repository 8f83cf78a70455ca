/**
 * One-line addresses (`Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito Juárez,
 * 03940 Ciudad de México, CDMX`), judged: read into the parts of an address record by the
 * parser (src/parse), judged by the one validator as a structured record, and completed from
 * the catalog: what the code implies is filled in, and a line without a code gets the code its
 * settlement, municipality and state point to (or the codes, when several do), by the rule
 * validation uses for a record without a code (parse/places).
 */
import type { CpmxClient } from '../client/client.js';
import { MAX_CODES } from '../parse/places.js';
import { AddressReader, type Reading } from '../parse/reader.js';
import { VALIDATION_ERRORS, validatorFor, type AddressValidator, type ValidationError } from './address.js';
import type { Field } from './fields.js';

export { MAX_CODES } from '../parse/places.js';

/** The parts of a one-line address, in the order results list them. */
export const ADDRESS_PARTS = [
  'cp',
  'estado',
  'municipio',
  'asentamiento',
  'tipo_asentamiento',
  'ciudad',
  'calle',
  'numero_exterior',
  'numero_interior',
] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

export interface ParsedAddress extends Record<AddressPart, string | null> {
  valid: boolean;
  /** As `validateAddress` gives them; 130 with its `reason` when the line holds no address. */
  errors: ValidationError[];
  suggestions: Partial<Record<Field, string>>;
  /** When no code is written and several fit what is: the first ten, in catalog order. */
  codes?: string[];
  /** The parts read from the text. */
  read: AddressPart[];
  /** The parts filled from the catalog (the code's state, municipality, city; a code found from names). */
  inferred: AddressPart[];
}

/** A line that holds no address: every part null, 130 with the reason. */
export function unreadableAddress(reason: string): ParsedAddress {
  return {
    cp: null,
    estado: null,
    municipio: null,
    asentamiento: null,
    tipo_asentamiento: null,
    ciudad: null,
    calle: null,
    numero_exterior: null,
    numero_interior: null,
    valid: false,
    errors: [{ field: null, code_error: 130, error_message: VALIDATION_ERRORS[130], reason }],
    suggestions: {},
    read: [],
    inferred: [],
  };
}

/**
 * Judges one-line addresses for one client: the parser's reading, then the validator's
 * judgement of the record it makes, then what the code implies filled in.
 */
export class LineJudge {
  private readonly validator: AddressValidator;
  private readerCache: AddressReader | undefined;

  constructor(client: CpmxClient) {
    this.validator = validatorFor(client);
  }

  /** The parser, on the catalog the validator reads (one door to the client's catalog; made at the first line). */
  private get reader(): AddressReader {
    return (this.readerCache ??= new AddressReader(this.validator.catalog));
  }

  parse(text: unknown): ParsedAddress {
    const read = this.reader.read(text);
    return typeof read === 'string' ? unreadableAddress(read) : this.judge(read.reading, read.written, read.code);
  }

  /** Judges what was read under the code (written or found), and fills what the code implies. */
  judge(reading: Reading, written: string | null, code: number): ParsedAddress {
    const catalog = this.reader.catalog;
    const read: AddressPart[] = [];
    const inferred: AddressPart[] = [];
    let codes: string[] | undefined;
    let cp = written;
    let place = code;
    if (written === null) {
      const found = this.reader.codesOf(reading);
      if (found.length === 1) {
        place = found[0]!;
        cp = catalog.postalCode(place);
        inferred.push('cp');
      } else if (found.length > 1) codes = found.slice(0, MAX_CODES).map((c) => catalog.postalCode(c));
    } else read.push('cp');

    const stateName = reading.state >= 0 ? catalog.stateNames()[reading.state]! : null;
    const municipalityName = reading.municipalities.length ? catalog.nameOfMunicipality(reading.municipalities[0]!) : null;
    let settlement = place >= 0 && reading.settlementText !== null ? this.reader.settlementOf(place, reading.settlementText) : -1;
    let settlementName = settlement >= 0 ? catalog.settlementName(settlement) : reading.settlementName;
    const municipio = municipalityName ?? reading.municipalityText ?? '';
    const estado = stateName ?? reading.stateText ?? '';
    let result = this.validator.validateFields(cp ?? '', settlementName ?? '', municipio, estado, reading.cityText ?? '');
    // Not valid by its name: judged as written, its type too, which may be part of the name (`SM. 5` is *Supermanzana 5 Centro*).
    if (!result.valid && settlement < 0 && reading.settlementText !== null && reading.settlementText !== settlementName) {
      const asWritten = this.validator.validateFields(cp ?? '', reading.settlementText, municipio, estado, reading.cityText ?? '');
      if (asWritten.valid) result = asWritten;
    }
    // Not the code's settlement, while another piece the line writes is (`Colonia Chapultepec, Polanco 11560`, a real line: 11560
    // is *Polanco V Sección*; *Chapultepec* is Xochimilco's): that piece is the settlement, and no other code is suggested.
    if (!result.valid && place >= 0 && result.errors.every((error) => error.field === 'asentamiento')) {
      for (const piece of reading.unread) {
        const found = this.reader.settlementOf(place, piece);
        const other = found >= 0 ? found : this.reader.looseSettlementOf(place, piece);
        if (other < 0) continue;
        const name = catalog.settlementName(other);
        const judged = this.validator.validateFields(cp ?? '', name, municipio, estado, reading.cityText ?? '');
        if (!judged.valid) continue;
        result = judged;
        settlement = other;
        settlementName = name;
        break;
      }
    }
    // A code read otherwise than written (the leading zero it lost put back) only where the judgement takes it back (the names are its):
    // `Col. Uruapan Centro, C.P. 6000` says nothing of the capital's 06000.
    if (written !== null && place >= 0 && written !== catalog.postalCode(place) && result.suggestions.cp !== catalog.postalCode(place)) place = -1;
    // A settlement the judgement takes written with or without its joining words (`Col. Granjas San Antonio`): in the catalog's spelling too.
    if (settlement < 0 && result.valid && place >= 0 && reading.settlementText !== null) {
      settlement = this.reader.looseSettlementOf(place, reading.settlementText);
      if (settlement >= 0) settlementName = catalog.settlementName(settlement);
    }

    // One object of one shape, its parts then the judgement (results are many: no spreading).
    const parsed: ParsedAddress = {
      cp,
      estado: stateName,
      municipio: municipalityName,
      asentamiento: settlementName,
      tipo_asentamiento: settlement >= 0 ? catalog.settlementType(settlement) : reading.settlementType,
      ciudad: reading.cityText !== null && place >= 0 && this.reader.isCityOf(place, reading.cityText) ? catalog.cityOf(place) : reading.cityText,
      calle: reading.calle,
      numero_exterior: reading.numeroExterior,
      numero_interior: reading.numeroInterior,
      valid: result.valid,
      errors: result.errors,
      suggestions: result.suggestions,
      read,
      inferred,
    };
    for (const part of ADDRESS_PARTS) if (part !== 'cp' && parsed[part] !== null) read.push(part);
    if (place >= 0) {
      const fill = (part: AddressPart, value: string) => {
        if (parsed[part] === null && value) {
          parsed[part] = value;
          inferred.push(part);
        }
      };
      fill('estado', catalog.stateOf(place));
      fill('municipio', catalog.municipalityOf(place));
      fill('ciudad', catalog.cityOf(place).trim());
      if (catalog.settlementEndOf(place) - catalog.settlementStartOf(place) === 1) {
        fill('asentamiento', catalog.settlementName(catalog.settlementStartOf(place)));
        fill('tipo_asentamiento', catalog.settlementType(catalog.settlementStartOf(place)));
      }
    }
    if (codes) parsed.codes = codes;
    return parsed;
  }

}

const judges = new WeakMap<CpmxClient, LineJudge>();

/**
 * Reads a one-line address against the catalog the client answers from: its parts (in the
 * catalog's spelling where they name a place), whether they agree with its code (the errors
 * and suggestions of `validateAddress`), which parts were read and which inferred. Never
 * throws on its input: an empty line, binary data or a huge text get error 130 with a reason.
 */
export function parseAddress(client: CpmxClient, text: string): ParsedAddress {
  let judge = judges.get(client);
  if (!judge) judges.set(client, (judge = new LineJudge(client)));
  return judge.parse(text);
}
