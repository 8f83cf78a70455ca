/**
 * `cpmx download`: the official catalog from the Correos de México export page, checked and
 * written atomically. `cpmx build --download` runs the same download first (runDownload).
 */
import { defaultDownloadPath } from '../../../build/locations.js';
import { EXIT, HELP_OPTION, UsageError, command, integer, noPositionals } from '../command.js';
import { downloadPageOption } from '../environment.js';

/** Exit status of a download stopped by Ctrl-C, as shells report a SIGINT. */
const EXIT_INTERRUPTED = 130;

export interface DownloadRun {
  out: string;
  state?: string | undefined;
  pageUrl?: string | undefined;
  retries?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** Downloads, drawing progress on a terminal and saying what went wrong; resolves to the exit status and the file written. */
export async function runDownload(options: DownloadRun): Promise<{ status: number; path?: string; catalogDate?: string }> {
  const { downloadCatalog, DownloadError, OFFICIAL_PAGE_URL, terminalProgress } = await import('../../../build/download/index.js');
  const page = options.pageUrl ?? OFFICIAL_PAGE_URL;
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  const progress = terminalProgress(process.stderr, 'cpmx download:');
  process.stderr.write(`cpmx download: ${page}${options.state && options.state !== '00' ? `, state ${options.state}` : ''} -> ${options.out}\n`);
  try {
    const result = await downloadCatalog({
      out: options.out,
      state: options.state,
      pageUrl: page,
      retries: options.retries,
      idleTimeoutMs: options.idleTimeoutMs,
      signal: controller.signal,
      onProgress: progress.onProgress,
      onRetry: ({ attempt, delayMs, error }) => {
        progress.done();
        process.stderr.write(`cpmx download: attempt ${attempt} failed (${error.reason}); trying again in ${(delayMs / 1000).toFixed(1)} s\n`);
      },
    });
    progress.done();
    const dated = result.member.modified ? `, dated ${result.member.modified.slice(0, 10)}` : '';
    process.stdout.write(
      `cpmx download: wrote ${result.path}\n` +
        `  ${result.bytes.toLocaleString('en-US')} bytes, sha256 ${result.sha256}\n` +
        `  ${result.member.name}: ${result.member.bytes.toLocaleString('en-US')} bytes${dated}\n`,
    );
    return { status: EXIT.ok, path: result.path, catalogDate: result.member.modified };
  } catch (error) {
    progress.done();
    if (!(error instanceof DownloadError)) throw error;
    if (error.kind === 'aborted') {
      process.stderr.write('cpmx download: interrupted; nothing was written.\n');
      return { status: EXIT_INTERRUPTED };
    }
    const kept = error.kind === 'write' ? '' : '\nNothing was written; a file already there was left as it was.';
    process.stderr.write(`cpmx download: failed: ${error.message}${kept}\n`);
    return { status: EXIT.failed };
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}

/** `--state`: two digits, `00` (all) to `32`. */
export function stateOption(value: string | undefined): string | undefined {
  if (value !== undefined && !/^\d{2}$/.test(value)) throw new UsageError(`--state takes a state key of two digits, 01 to 32 (00 for all), got "${value}"`);
  return value;
}

export const downloadCommand = command({
  name: 'download',
  synopsis: '',
  usageOptions: '[--out FILE] [--state CLAVE]',
  summary: 'download the official catalog from Correos de México',
  description: `Downloads the catalog from the export page of Correos de México, as a browser does: it reads
the page's form (its hidden fields, the state list, the TXT format) and posts it back. The zip
that comes back is checked before it is written (one CPdescarga.txt that inflates whole and
passes its CRC-32, with the catalog's header), then written through a temporary file: a failed
download never leaves a file behind nor replaces a good one.

It retries a connection that fails or is cut (twice by default, waiting 1 s, then 2 s) and
gives up on silence after --timeout seconds; Ctrl-C stops it. Where the site cannot be
reached, the message says how to download the catalog by hand in a browser.

Then: cpmx build --source FILE (or cpmx build --download does both).`,
  exit: 'Exit status: 0 when downloaded, 1 when the download failed, 2 on a usage error, 130 when interrupted.',
  options: {
    out: { type: 'string', value: 'FILE', help: `where to write the zip (default ${defaultDownloadPath})` },
    state: { type: 'string', value: 'CLAVE', help: 'one state, 01 to 32 (c_estado), instead of 00, all of them' },
    'page-url': { type: 'string', value: 'URL', help: 'the export page (default: CPMX_DOWNLOAD_PAGE, else the official one)' },
    retries: { type: 'string', value: 'N', help: 'attempts after the first for transient failures (default 2)' },
    timeout: { type: 'string', value: 'SECONDS', help: 'give up when the site sends nothing for this long (default 30)' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'download', 'Use --out FILE.');
    const { status } = await runDownload({
      out: values.out ?? defaultDownloadPath,
      state: stateOption(values.state),
      pageUrl: downloadPageOption(values['page-url']),
      retries: values.retries === undefined ? undefined : integer(values.retries, '--retries', 0, 10),
      idleTimeoutMs: values.timeout === undefined ? undefined : integer(values.timeout, '--timeout', 1, 3600) * 1000,
    });
    return status;
  },
});
