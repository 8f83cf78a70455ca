/**
 * The I/O shell of `cpmx validate`: opens the input, cuts it into ranges, has them judged
 * (here, or by workers on every core), writes results and the fixed file in input order (to
 * temporary files renamed at the end), draws progress, prints the summary.
 */
import { once } from 'node:events';
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { CpmxClient } from '../client/client.js';
import { OutputError, OutputFile, sameFile } from '../output-file.js';
import { validatorFor } from './address.js';
import { byteOrderMark, encoderFor, type Encoding } from './encoding.js';
import { InputError } from './errors.js';
import { COLUMN_SLOTS, type ColumnOverrides } from './fields.js';
import { openInput, type InputFormat, type OpenedInput } from './input.js';
import { inputSource } from './input-source.js';
import { pointColumns } from './coordinates.js';
import { createJudge, csvResultsHeader, QUOTES_NAMED, type JudgePlan, type RangeJudge, type RangeOutcome } from './judge.js';
import type { ParseCsv } from './read.js';

export interface RunValidateOptions {
  /** A path, or `-` for stdin. */
  input: string;
  output?: string | undefined;
  /** Where to write the input back with suggestions applied. */
  fix?: string | undefined;
  /** With `fix`: also write every accepted value in the catalog's spelling (`N.L.` → Nuevo León). */
  canonical?: boolean | undefined;
  inputFormat?: InputFormat | undefined;
  encoding?: Encoding | undefined;
  /** The results' format. */
  format: 'ndjson' | 'csv';
  invalidOnly: boolean;
  columns: ColumnOverrides;
  maxRecordBytes?: number | undefined;
  /** Threads that judge ranges; 1 judges in this thread. */
  jobs: number;
  client: CpmxClient;
  /** The client's token, for the workers' own clients. */
  token: string;
  /** Add each valid record's point and check lat/lng columns against the code's area (needs geodata). */
  coordinates?: boolean | undefined;
  quiet: boolean;
}

/** Read size: also about the size of a range each worker judges at once. */
const READ_BYTES = 64 * 1024;
/** Ranges each worker is given ahead, so it never waits for this thread. */
const WORKER_QUEUE = 3;

/**
 * An output file (src/output-file.ts decides how it is written: a temporary file renamed into
 * place at the end, complete or not there at all; a device or FIFO in place), as a stream.
 */
class PendingFile {
  readonly stream: WriteStream;
  error: NodeJS.ErrnoException | undefined;

  private constructor(
    private readonly file: OutputFile,
    readonly option: string,
  ) {
    this.stream = createWriteStream('', { fd: file.fd, autoClose: false });
    this.stream.on('error', (error) => (this.error ??= error));
  }

  /** Opened before any work, so a path that may not be written is reported at once. */
  static async open(path: string, option: string, input: string): Promise<PendingFile> {
    return new PendingFile(await OutputFile.open(path, { inputs: [input === '-' ? 0 : input] }), option);
  }

  /** What a failure leaves: nothing of a file replaced at the end; part of one written in place. */
  get left(): string {
    return this.file.inPlace ? `${this.option} ${this.path} holds part of the results` : 'nothing was written';
  }

  get path(): string {
    return this.file.path;
  }

  async commit(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (this.error) throw this.error;
    this.file.commit();
  }

  discard(): void {
    this.stream.destroy();
    this.file.discard();
  }
}

/**
 * Writes bytes, waiting for the stream to drain when it asks to (one listener at a time);
 * `written` is called once the stream is done with them.
 */
async function put(stream: Writable, bytes: Uint8Array, written?: () => void): Promise<void> {
  if (bytes.length && !stream.write(bytes, written)) await once(stream, 'drain');
}

/** Counts what is read, for progress. */
async function* counted(source: AsyncIterable<Uint8Array>, count: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    count(chunk.length);
    yield chunk;
  }
}

function describe(input: OpenedInput): string {
  const encoding = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16LE', 'utf-16be': 'UTF-16BE', 'windows-1252': 'Windows-1252' }[input.encoding];
  const delimiter = input.plan.delimiter === '\t' ? 'tab' : `"${input.plan.delimiter}"`;
  // A field without a column is never checked: said, so a header named otherwise (`provincia`) is not taken for a clean file.
  const missing = input.header ? COLUMN_SLOTS.filter((_, i) => i > 0 && input.plan.columns[i]! < 0) : [];
  const unchecked = missing.length ? `; no column for ${missing.join(', ')} (not checked)` : '';
  return `${input.format === 'csv' ? `CSV (${delimiter})` : 'NDJSON'} in ${encoding}${input.bom ? ' with BOM' : ''}${unchecked}`;
}

/** One range's outcome, in input order; judged here (done at once) or by a worker. */
interface Slot {
  outcome?: RangeOutcome;
  /** Judged by a worker: its bytes are handed back once written. */
  byWorker?: true;
  error?: unknown;
  settled: Promise<void>;
}

function slotOf(work: RangeOutcome | Promise<RangeOutcome>, failed: (error: unknown) => void): Slot {
  if (!(work instanceof Promise)) return { outcome: work, settled: Promise.resolve() };
  const slot: Slot = { settled: Promise.resolve(), byWorker: true };
  slot.settled = work.then(
    (outcome) => {
      slot.outcome = outcome;
    },
    (error: unknown) => {
      slot.error = error;
      failed(error);
    },
  );
  return slot;
}

export async function runValidate(options: RunValidateOptions): Promise<number> {
  const started = performance.now();
  const name = options.input === '-' ? 'stdin' : options.input;
  let size: number | undefined;
  if (options.input !== '-') {
    try {
      const stats = statSync(options.input);
      if (stats.isDirectory()) return fail(`${options.input} is a directory`);
      size = stats.size;
    } catch (error) {
      return fail(`${options.input}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
    }
  }
  const files: PendingFile[] = [];
  let output: PendingFile | undefined;
  let fixed: PendingFile | undefined;
  // Stopped by a signal, nothing half-written stays behind (set before any file is opened).
  const stop = (signal: NodeJS.Signals) => {
    for (const file of files) file.discard();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  if (options.output || options.fix) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
  let opening = '--output';
  try {
    if (options.output) files.push((output = await PendingFile.open(options.output, opening, options.input)));
    opening = '--fix';
    if (options.fix && options.output && sameFile(options.output, options.fix)) throw new OutputError(options.fix, `is --output too; give each its own file`);
    if (options.fix) files.push((fixed = await PendingFile.open(options.fix, opening, options.input)));
  } catch (error) {
    for (const file of files) file.discard();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stop);
    if (error instanceof OutputError) return fail(`cannot write ${opening} ${error.path}: ${error.reason}`);
    throw error;
  }
  const out: Writable = output?.stream ?? process.stdout;

  const tty = !options.quiet && process.stderr.isTTY === true;
  let bytes = 0;
  let records = 0;
  let valid = 0;
  let unverifiable = 0;
  const quotes: string[] = [];
  const invalidByCode = new Map<number, number>();
  let lastDraw = 0;
  const draw = (final = false) => {
    const now = performance.now();
    if (!tty || (!final && now - lastDraw < 150)) return;
    lastDraw = now;
    const share = size ? Math.min(1, bytes / size) : undefined;
    const bar = share === undefined ? '' : `[${'#'.repeat(Math.round(share * 30)).padEnd(30, '.')}] ${(share * 100).toFixed(0).padStart(3)}% `;
    process.stderr.write(`\r${bar}${records.toLocaleString('en-US')} records, ${(records - valid).toLocaleString('en-US')} invalid`);
  };

  const source = inputSource(options.input, READ_BYTES);
  let pool: import('./worker.js').ValidationPool | undefined;
  let input: OpenedInput | undefined;
  try {
    const { parse } = await import('csv-parse/sync');
    input = await openInput(
      counted(source, (n) => (bytes += n)),
      { format: options.inputFormat, encoding: options.encoding, columns: options.columns, maxRecordBytes: options.maxRecordBytes },
      parse as ParseCsv,
    );
    const plan: JudgePlan = { ...input.plan, results: options.format, invalidOnly: options.invalidOnly, fix: fixed ? input.encoding : null, canonical: options.canonical === true };
    if (options.coordinates) plan.coordinates = input.header ? pointColumns(input.header.names) : [-1, -1];
    /** The workers of --jobs N (N - 1 of them), started once. */
    const startPool = async () => {
      if (pool || options.jobs < 2) return;
      const { ValidationPool } = await import('./worker.js');
      pool = new ValidationPool(options.jobs - 1, { token: options.token, dataPath: options.client.dataPath, plan });
    };
    // A file of more than one range has its workers start loading now, while this thread
    // judges the first range (and keys the catalog's settlements if a record needs them);
    // stdin's, when a second range comes. An input of one range starts none.
    if (size !== undefined && size > READ_BYTES) await startPool();
    const validator = validatorFor(options.client);
    const judge: RangeJudge = await createJudge(validator, plan);

    if (options.format === 'csv') await put(out, Buffer.from(csvResultsHeader(plan)));
    if (fixed) {
      if (input.bom) await put(fixed.stream, byteOrderMark(input.encoding));
      const { header } = input;
      if (header) {
        const d = plan.delimiter;
        await put(fixed.stream, encoderFor(input.encoding)(`${header.text}${d}cpmx_status${d}cpmx_errors${header.lineEnd}`));
      }
    }

    const write = async (outcome: RangeOutcome, byWorker: boolean) => {
      // Once written, a worker's bytes go back to the pool (see `handBack`).
      const handBack = (bytes: Uint8Array) => (byWorker ? () => pool?.handBack(bytes) : undefined);
      records += outcome.records;
      valid += outcome.valid;
      unverifiable += outcome.unverifiable;
      for (const quote of outcome.quotes) if (quotes.length < QUOTES_NAMED) quotes.push(quote);
      for (const [code, count] of Object.entries(outcome.byCode)) invalidByCode.set(Number(code), (invalidByCode.get(Number(code)) ?? 0) + count);
      await put(out, outcome.results, handBack(outcome.results));
      if (fixed && outcome.fixed) await put(fixed.stream, outcome.fixed, handBack(outcome.fixed));
      for (const file of files) if (file.error) throw file.error;
      draw();
    };
    // Ranges being judged, in input order: bounded, so memory is too however large the input.
    const queue: Slot[] = [];
    // Room for this thread to run ahead of a worker still starting or paused by the system
    // (measured: with 8 ranges a worker, this thread waited on a starting worker's first
    // ranges; 32 ranges are about 2 MB of input and its results).
    const inFlight = Math.max(2, options.jobs * 32);
    const writeReady = async (atMost: number) => {
      while (queue.length > atMost || (queue.length && (queue[0]!.outcome || queue[0]!.error))) {
        const slot = queue.shift()!;
        await slot.settled;
        if (slot.error) throw slot.error;
        await write(slot.outcome!, slot.byWorker === true);
      }
    };
    // A range a worker refuses stops the run at once, not when the next input comes: the
    // input is ended with that error, so a read waiting on a pipe left open fails with it.
    const failed = (error: unknown) => source.destroy(error as Error);
    const pieces = input.pieces[Symbol.asyncIterator]();
    // This thread judges ranges too, whenever the workers have enough to do: with --jobs N
    // there are N - 1 workers, and this thread's cutting and writing leave it mostly free.
    // It judges the first range itself, so that an index it makes there reaches the workers
    // before any range does (messages arrive in order): no worker keys the settlements again.
    let ranges = 0;
    // The settlement index, once a record here has needed it, goes to the workers (at most once).
    let indexShared = false;
    const shareIndex = () => {
      const data = indexShared || !pool ? undefined : validator.settlementIndexData();
      if (data) {
        pool!.share(data);
        indexShared = true;
      }
    };
    for (;;) {
      const next = await pieces.next();
      if (next.done) break;
      const piece = next.value;
      if (piece.kind === 'overlong') queue.push(slotOf(judge.overlong(piece.line), failed));
      else {
        if (++ranges === 2) await startPool();
        shareIndex();
        const here = !pool || ranges === 1 || pool.pending >= pool.size * WORKER_QUEUE;
        queue.push(slotOf(here ? judge.judge(piece.bytes, piece.line) : pool!.run(piece.bytes, piece.line), failed));
        // Let the workers' answers in (reading the input may not wait for the event loop), so
        // they are given more work as soon as they are free.
        if (here && pool) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await writeReady(inFlight - 1);
    }
    await writeReady(0);
    for (const file of files) await file.commit();
  } catch (error) {
    for (const file of files) file.discard();
    if (tty) process.stderr.write('\n');
    const left = files.length ? `; ${[...new Set(files.map((f) => f.left))].join('; ')}` : '';
    if (error instanceof InputError) return fail(`${name}: ${error.message}${left}`);
    const file = files.find((f) => f.error !== undefined && f.error === error);
    if (file) return fail(`cannot write ${file.option} ${file.path}: ${file.error!.code ?? file.error!.message}${left}`);
    if (error instanceof OutputError) return fail(`${error.message}${left}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return fail(`${options.input}: cannot be read (${code})`);
    throw error;
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stop);
    // Stopped early or not, the input is let go: a pipe left open must not keep the command waiting.
    source.destroy();
    await pool?.close();
  }
  draw(true);
  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const byCode = [...invalidByCode]
      .sort(([a], [b]) => a - b)
      .map(([code, n]) => `${code}: ${n.toLocaleString('en-US')}`)
      .join(', ');
    process.stderr.write(
      `${tty ? '\n' : ''}cpmx validate: ${records.toLocaleString('en-US')} record${records === 1 ? '' : 's'}, ${valid.toLocaleString('en-US')} valid` +
        `${unverifiable ? ` (${unverifiable.toLocaleString('en-US')} with a city the catalog cannot check: 125)` : ''}, ` +
        `${(records - valid).toLocaleString('en-US')} invalid${byCode ? ` (${byCode})` : ''}; ${describe(input!)}; ` +
        `${quotes.length ? `unreadable for a quote: ${quotes.join('; ')}${(invalidByCode.get(130) ?? 0) > quotes.length ? '; ...' : ''}; ` : ''}` +
        `${seconds.toFixed(2)} s, ${Math.round(records / Math.max(seconds, 1e-9)).toLocaleString('en-US')} records/s\n`,
    );
  }
  return records === valid ? 0 : 1;
}

function fail(message: string): number {
  process.stderr.write(`cpmx validate: ${message}\n`);
  return 2;
}
