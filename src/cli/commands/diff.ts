/** `cpmx diff`: what changed between two catalogs, as NDJSON a pipeline can apply. */
import { ArtifactError, type Catalog } from '../../core/catalog.js';
import { EXIT, HELP_OPTION, UsageError, command } from '../command.js';

export const diffCommand = command({
  name: 'diff',
  synopsis: '<old> <new>',
  summary: 'what changed between two catalogs (files or artifacts), as NDJSON',
  description: `Compares two catalogs, each a catalog file (CPdescarga.txt or its zip) or an artifact
(cpmx.msgpack), and writes one JSON object a line per change, then a summary line:

  {"change":"code-added","cp":"29019","estado":"Chiapas","municipio":"...","ciudad":"...","asentamientos":[...]}
  {"change":"settlement-renamed","cp":"09810","from":{"asentamiento":"...","tipo_asentamiento":"..."},"to":{...}}
  {"change":"summary","old":{...},"new":{...},"changes":2,"counts":{"code-added":1,...}}

Changes: state-added, -removed, -renamed; municipality-added, -removed, -renamed (by
c_estado and c_mnpio); code-added, code-removed, code-state-changed,
code-municipality-changed, code-city-changed; settlement-renamed, -retyped, -removed,
-added. Within a code, a settlement removed and one added whose names are at least 70%
alike (ignoring case and accents) are reported as renamed; the same name with another type as
retyped. A change to a code that a correction touches (cpmx build --corrections) lists them,
"corrections":[{"side":"new","line":3,"action":"rename-settlement"}], and the summary gives
each side's applied corrections.`,
  exit: 'Exit status: 0 when the catalogs are the same, 1 when they differ, 2 when either cannot be read (or on a usage error).',
  options: { ...HELP_OPTION },
  async run({ positionals }) {
    if (positionals.length !== 2) throw new UsageError(`cpmx diff needs two catalogs, <old> <new>, got ${positionals.length}.\nRun "cpmx diff --help" for usage.`);
    const [oldPath, newPath] = positionals as [string, string];
    const { openCatalog } = await import('../../../build/open-catalog.js');
    const { CatalogError } = await import('../../../build/errors.js');
    const { diffCatalogs, diffSummary, emptyCounts } = await import('../../../build/diff.js');
    let catalogs: [Catalog, Catalog];
    try {
      catalogs = [await openCatalog(oldPath), await openCatalog(newPath)];
    } catch (error) {
      if (error instanceof CatalogError || error instanceof ArtifactError) {
        process.stderr.write(`cpmx diff: cannot read ${error.message}\n`);
        return EXIT.usage;
      }
      throw error;
    }
    const [old, next] = catalogs;
    const counts = emptyCounts();
    let pending = '';
    for (const change of diffCatalogs(old, next)) {
      counts[change.change]++;
      pending += `${JSON.stringify(change)}\n`;
      if (pending.length > 64 * 1024) {
        process.stdout.write(pending);
        pending = '';
      }
    }
    const summary = diffSummary(old, next, counts);
    process.stdout.write(`${pending}${JSON.stringify(summary)}\n`);
    if (process.stderr.isTTY) {
      const listed = Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`);
      process.stderr.write(`cpmx diff: ${summary.changes} changes${listed.length ? ` (${listed.join(', ')})` : ''}\n`);
    }
    return summary.changes ? EXIT.failed : EXIT.ok;
  },
});
