/**
 * Node's on-disk compile cache (`module.enableCompileCache`, Node 22.1 and later) for the
 * command line's own modules: a run after the first then skips compiling what it loads. Only
 * the command line turns it on, for its own process (the library never does: it is its host's
 * setting); where Node has none, or it cannot be used (a read-only temporary folder), nothing
 * changes. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as Node documents.
 */
import * as nodeModule from 'node:module';

type WithCompileCache = { enableCompileCache?: (directory?: string) => unknown };

export function enableCompileCache(): void {
  try {
    (nodeModule as WithCompileCache).enableCompileCache?.();
  } catch {
    // The cache only ever saves time: a run without it answers the same.
  }
}
