/**
 * The one place the command line turns a registry it cannot use as given (a RegistryError: a
 * missing file, a schema newer than this cpmx, no driver, `--panel` without a registry) into
 * a usage error: the command refuses with the registry's message and exits 2.
 */
import { failureOf } from '../registry/failure.js';
import { UsageError } from './command.js';

export async function refusedAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (failureOf(error) === 'refused') throw new UsageError((error as Error).message);
    throw error;
  }
}
