/**
 * Judges the records of one range: validates each, writes its result line (NDJSON or CSV, or
 * a result object for the library) and, for `--fix`, the record written back. The same code
 * runs in the main thread and in every worker, so their outputs cannot differ.
 */
import type { AddressValidator } from './address.js';
import { resultFields, unreadable, type Fix, type ValidationResult } from './result.js';
import { ByteWriter } from './bytes.js';
import { CoordinateCheck, pointKeys, type Point, type PointColumns } from './coordinates.js';
import { decodeCarried, encoderFor, type CarriedEncoding, type Encoding } from './encoding.js';
import { InputError } from './errors.js';
import { COLUMN_SLOTS, FIELDS, recordMapper, type ColumnOverrides, type Field, type FieldValues } from './fields.js';
import { readCsv, readNdjson, tooLong, type ParseCsv, type ReadPlan, type RecordVisitor } from './read.js';

/** A field's place in the values the reader gives. */
const SLOTS = Object.fromEntries(COLUMN_SLOTS.map((field, slot) => [field, slot])) as Record<Field, number>;

/** How a range is judged and written: plain data, sent to workers as it is. */
export interface JudgePlan extends ReadPlan {
  carried: CarriedEncoding;
  /** NDJSON: the keys named by --column. */
  overrides: ColumnOverrides;
  results: 'ndjson' | 'csv' | 'objects';
  invalidOnly: boolean;
  /** Write the records back (`--fix`) in this encoding; null when not asked. */
  fix: Encoding | null;
  /** `--canonical`: write back every accepted value in the catalog's spelling, not only wrong ones. */
  canonical: boolean;
  /** Said when the file is not valid in its encoding (what to do about it). */
  encodingHint: string;
  /** `--coordinates`: a CSV's lat and lng columns (-1 when absent; NDJSON reads keys); undefined when not asked. */
  coordinates?: PointColumns | undefined;
}

/** A result with the record's line in the input (and, with `--coordinates`, its code's point: null when none). */
export interface LineResult extends ValidationResult {
  line: number;
  lat?: number | null;
  lng?: number | null;
}

/** What judging a range gives. */
export interface RangeOutcome {
  /** Result lines (NDJSON or CSV) as UTF-8 bytes; empty for objects. */
  results: Uint8Array;
  /** The records written back, in the input's encoding (`--fix`). */
  fixed: Uint8Array | undefined;
  objects: LineResult[];
  records: number;
  valid: number;
  /** Records with each `code_error`, by code. */
  byCode: Record<number, number>;
  /** Valid records with a field the catalog cannot check (warning 125), counted apart. */
  unverifiable: number;
  /** The first records a quote made unreadable, with where it opened and where reading resumed (for the summary). */
  quotes: string[];
}

/** Records a quote made unreadable named in a range's outcome, at most (the summary names the first few). */
export const QUOTES_NAMED = 3;

/**
 * The header of `--format csv` results: then the codes the names fit when they fit several
 * (`codes`), and the warnings' codes (`warnings`, 125: a city the catalog cannot check), each
 * list separated by spaces, as `errors` is.
 */
export const CSV_RESULTS_HEADER = `line,valid,errors,reason,${FIELDS.map((field) => `suggested_${field}`).join(',')},codes,warnings\n`;

/** The header of `--format csv` results, with the point's columns for `--coordinates`. */
export function csvResultsHeader(plan: Pick<JudgePlan, 'coordinates'>): string {
  return plan.coordinates ? `${CSV_RESULTS_HEADER.slice(0, -1)},lat,lng\n` : CSV_RESULTS_HEADER;
}

const VALID_PREFIX = Buffer.from('{"line":');
const VALID_SUFFIX = Buffer.from(',"valid":true,"errors":[],"suggestions":{}}\n');

/** A CSV field, quoted when it must be. */
export function csvField(value: string, delimiter = ','): string {
  return value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r') ? `"${value.replaceAll('"', '""')}"` : value;
}

function resultCsv(line: number, result: ValidationResult, point: Point | null | undefined): string {
  const reason = result.errors.find((error) => error.reason !== undefined)?.reason ?? '';
  const suggested = FIELDS.map((field) => csvField(result.suggestions[field] ?? '')).join(',');
  const coordinates = point === undefined ? '' : point === null ? ',,' : `,${point.lat},${point.lng}`;
  const codes = result.codes?.join(' ') ?? '';
  const warnings = result.warnings?.map((warning) => warning.code_error).join(' ') ?? '';
  return `${line},${result.valid},${result.errors.map((error) => error.code_error).join(' ')},${csvField(reason)},${suggested},${codes},${warnings}${coordinates}\n`;
}

export class RangeJudge implements RecordVisitor {
  private text = '';
  private readonly out = new ByteWriter();
  private fixed = '';
  private objects: LineResult[] = [];
  private records = 0;
  private valid = 0;
  private byCode: Record<number, number> = {};
  private unverifiable = 0;
  private quotes: string[] = [];
  private readonly mapper;
  /** Which key fed each field of the NDJSON record at hand (for --fix). */
  private keys: Partial<Record<Field, string>> = {};
  private readonly encodeFix: ((text: string) => Uint8Array) | undefined;
  /** `--coordinates`: made here, so once per thread (and the geodata read once by its client). */
  private readonly points: CoordinateCheck | undefined;

  constructor(
    private readonly validator: AddressValidator,
    private readonly plan: JudgePlan,
    private readonly parse: ParseCsv,
  ) {
    this.mapper = recordMapper(plan.overrides);
    this.encodeFix = plan.fix ? encoderFor(plan.fix) : undefined;
    this.points = plan.coordinates ? new CoordinateCheck(validator.client) : undefined;
  }

  /** Judges a range of carried bytes whose first line is `line`. */
  judge(bytes: Uint8Array, line: number): RangeOutcome {
    const text = decodeCarried(bytes, this.plan.carried, line, () => this.plan.encodingHint);
    this.text = text;
    if (this.plan.format === 'csv') readCsv(text, line, this.plan, this.parse, this);
    else readNdjson(text, line, this.plan, this);
    this.text = '';
    return this.take();
  }

  /** A record longer than the maximum that the cutter did not keep. */
  overlong(line: number): RangeOutcome {
    this.refuseTooLong(line);
    this.judged(line, unreadable(tooLong(this.plan.maxRecordBytes)));
    return this.take();
  }

  /** --fix cannot write back a record it does not keep: refused, whether the cutter kept this one or not. */
  private refuseTooLong(line: number): void {
    if (this.plan.fix) {
      throw new InputError(`line ${line} holds a record longer than ${this.plan.maxRecordBytes} bytes, which --fix cannot write back; raise --max-record-bytes`);
    }
  }

  private take(): RangeOutcome {
    const outcome: RangeOutcome = {
      results: this.out.take(),
      fixed: this.encodeFix ? this.encodeFix(this.fixed) : undefined,
      objects: this.objects,
      records: this.records,
      valid: this.valid,
      byCode: this.byCode,
      unverifiable: this.unverifiable,
      quotes: this.quotes,
    };
    this.quotes = [];
    this.fixed = '';
    this.objects = [];
    this.records = this.valid = this.unverifiable = 0;
    this.byCode = {};
    return outcome;
  }

  /** The one hook of `--coordinates`: the record's GPS point checked, and its code's point found. */
  private located(result: ValidationResult, cp: unknown, lat: unknown, lng: unknown): { result: ValidationResult; point: Point | null | undefined } {
    return this.points ? this.points.check(result, cp, lat, lng) : { result, point: undefined };
  }

  private judged(line: number, result: ValidationResult, located?: Point | null): void {
    // With --coordinates every result has the point's fields (null for one unread or invalid).
    const point = this.points ? (located ?? null) : undefined;
    this.records++;
    if (result.warnings) this.unverifiable++;
    if (result.valid) {
      this.valid++;
      if (this.plan.invalidOnly) return;
    } else for (const { code_error } of result.errors) this.byCode[code_error] = (this.byCode[code_error] ?? 0) + 1;
    switch (this.plan.results) {
      case 'ndjson':
        if (point !== undefined) this.out.text(`${JSON.stringify({ line, ...resultFields(result), lat: point?.lat ?? null, lng: point?.lng ?? null })}\n`);
        else if (result.valid && !result.warnings) {
          this.out.bytes(VALID_PREFIX);
          this.out.integer(line);
          this.out.bytes(VALID_SUFFIX);
        } else this.out.text(`${JSON.stringify({ line, ...resultFields(result) })}\n`);
        break;
      case 'csv':
        this.out.text(resultCsv(line, result, point));
        break;
      default:
        this.objects.push(point === undefined ? { line, ...resultFields(result) } : { line, ...resultFields(result), lat: point?.lat ?? null, lng: point?.lng ?? null });
    }
  }

  csv(line: number, values: (string | undefined)[], fields: string[] | undefined, start: number, end: number, next: number): void {
    const cp = values[0];
    const asentamiento = values[1];
    const municipio = values[2];
    const estado = values[3];
    const ciudad = values[4];
    let result = this.validator.validateFields(cp, asentamiento, municipio, estado, ciudad);
    let point: Point | null | undefined;
    if (this.plan.coordinates) {
      const [latColumn, lngColumn] = this.plan.coordinates;
      const all = latColumn < 0 ? [] : (fields ?? this.text.slice(start, end).split(this.plan.delimiter));
      ({ result, point } = this.located(result, cp, all[latColumn], all[lngColumn]));
    }
    this.judged(line, result, point);
    if (!this.encodeFix) return;
    const fix = this.validator.fix(cp, asentamiento, municipio, estado, ciudad, result, this.plan.canonical);
    const { delimiter, columns } = this.plan;
    let record = this.text.slice(start, end);
    const changes = Object.entries(fix.changes) as [Field, string][];
    if (changes.length) {
      // Rare: the record is written again, its fields quoted only where they must be.
      const written = fields ? fields.slice() : record.split(delimiter);
      for (const [field, replacement] of changes) written[columns[SLOTS[field]]!] = replacement;
      record = written.map((field) => csvField(field, delimiter)).join(delimiter);
    }
    this.fixed += `${record}${delimiter}${fix.status}${delimiter}${fix.codes.join(' ')}${this.text.slice(end, next)}`;
  }

  json(line: number, item: object, start: number, end: number, next: number): void {
    const values = this.mapper(item, this.encodeFix ? (this.keys = {}) : undefined) as FieldValues;
    let result = this.validator.validateValues(values);
    let point: Point | null | undefined;
    if (this.plan.coordinates) ({ result, point } = this.located(result, values.cp, ...pointKeys(item)));
    this.judged(line, result, point);
    if (!this.encodeFix) return;
    const fix = this.validator.fix(values.cp, values.asentamiento, values.municipio, values.estado, values.ciudad, result, this.plan.canonical);
    this.fixed += `${this.fixedJson(item, fix, start, end)}${this.text.slice(end, next)}`;
  }

  /** An NDJSON record written back: as it was, with its status and codes added and suggestions applied. */
  private fixedJson(item: object, fix: Fix, start: number, end: number): string {
    const added = `"cpmx_status":"${fix.status}","cpmx_errors":[${fix.codes.join(',')}]`;
    const raw = this.text.slice(start, end);
    const close = raw.lastIndexOf('}');
    const keys = Object.keys(item);
    if (Object.keys(fix.changes).length === 0 && !keys.includes('cpmx_status') && !keys.includes('cpmx_errors')) {
      return `${raw.slice(0, close)}${keys.length ? ',' : ''}${added}${raw.slice(close)}`;
    }
    const copy: Record<string, unknown> = { ...item };
    for (const [field, replacement] of Object.entries(fix.changes) as [Field, string][]) copy[this.keys[field] ?? field] = replacement;
    copy.cpmx_status = fix.status;
    copy.cpmx_errors = fix.codes;
    return JSON.stringify(copy);
  }

  unreadable(line: number, reason: string, start: number, end: number, next: number): void {
    if (reason === tooLong(this.plan.maxRecordBytes)) this.refuseTooLong(line);
    if (this.quotes.length < QUOTES_NAMED && reason.includes('quote')) this.quotes.push(`line ${line}: ${reason}`);
    this.judged(line, unreadable(reason));
    if (!this.encodeFix) return;
    // Written back as it was: CSV records marked invalid, NDJSON lines unchanged (not objects).
    const raw = this.text.slice(start, end);
    const { delimiter } = this.plan;
    this.fixed += `${this.plan.format === 'csv' ? `${raw}${delimiter}invalid${delimiter}130` : raw}${this.text.slice(end, next)}`;
  }

  blank(start: number, next: number): void {
    if (this.encodeFix) this.fixed += this.text.slice(start, next);
  }
}

/** A judge in this thread, for `client`'s catalog (csv-parse is loaded here, never by the lookups). */
export async function createJudge(validator: AddressValidator, plan: JudgePlan): Promise<RangeJudge> {
  const { parse } = await import('csv-parse/sync');
  return new RangeJudge(validator, plan, parse as ParseCsv);
}
