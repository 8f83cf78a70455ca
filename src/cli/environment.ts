/**
 * The command line's defaults from the environment, resolved here and nowhere else: a flag
 * wins, then its variable, then the built-in default.
 */
import { artifactPath } from '../paths.js';
import { UsageError } from './command.js';

const env = process.env;

/** `--token`, else CPMX_TOKEN. */
export function tokenOption(flag: string | undefined): string | undefined {
  return flag ?? env.CPMX_TOKEN;
}

/** `--data`, else CPMX_DATA, else the package's artifact. */
export function dataOption(flag: string | undefined): string {
  return artifactPath(flag);
}

/** `--registry`, else CPMX_REGISTRY. */
export function registryOption(flag: string | undefined): string | undefined {
  return flag ?? env.CPMX_REGISTRY;
}

/** `--host`, else HOST, else loopback. */
export function hostOption(flag: string | undefined): string {
  return flag ?? env.HOST ?? '127.0.0.1';
}

/** `--port`, else PORT, else 3000 (as text: the caller checks it). */
export function portOption(flag: string | undefined): string {
  return flag ?? env.PORT ?? '3000';
}

/** `--page-url`, else CPMX_DOWNLOAD_PAGE (a mirror of the export page), else undefined: the official page. */
export function downloadPageOption(flag: string | undefined): string | undefined {
  return flag ?? (env.CPMX_DOWNLOAD_PAGE || undefined);
}

/**
 * The build time to record: SOURCE_DATE_EPOCH (seconds; the reproducible-builds convention) for
 * byte-identical rebuilds, else undefined (now). Anything but whole seconds is refused.
 */
export function buildTimeOption(): Date | undefined {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return undefined;
  if (!/^\d+$/.test(epoch)) throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got "${epoch}"`);
  return new Date(Number(epoch) * 1000);
}

export const TOKEN_HELP = 'the token (default: the CPMX_TOKEN environment variable); "pruebas" is test mode';
export const DATA_HELP = "the artifact to read (default: CPMX_DATA, else the package's data/cpmx.msgpack)";
