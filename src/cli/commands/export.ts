/** `cpmx export web DIR`: the catalog as a static tree for browsers, workers and edge runtimes (cpmx/web). */
import { catalogSource } from '../../client/catalog-source.js';
import { EXIT, HELP_OPTION, UsageError, command } from '../command.js';
import { DATA_HELP, dataOption } from '../environment.js';

/** Another export into the same DIR got there first (sysexits' EX_TEMPFAIL: running again succeeds). */
const EXIT_RACE = 75;

export const exportCommand = command({
  name: 'export',
  synopsis: 'web DIR',
  usageOptions: '[--data FILE]',
  summary: 'write the catalog as a static tree that cpmx/web answers from in browsers and edges',
  description: `Writes the loaded catalog into DIR as small JSON files that any static server or CDN can
serve and that cpmx/web (createWebClient({ base })) fetches one by one: a code costs about
3 KB gzipped, a form's three selects about 4 KB. The files: manifest.json (the catalog's date,
the format version and the hashes of the files below it), the state list, each state's
municipalities, each municipality's codes and settlements, and the codes by three-digit
prefix. Every file but manifest.json is named by the CRC-32 of its bytes, so it may be cached
forever. The state list, the digits' indexes and the shards are also under direct names
(e.json, d0.json, c098.json: hard links), which a client fetches beside the manifest and checks
against the hashes: serve manifest.json and these with "Cache-Control: no-cache".

The tree is written into a new folder beside DIR and then swapped in, so a server never
serves half of one. DIR must be new, empty, or a previous export: a folder holding anything
else is refused before a byte is written. What is in it is told by what it is, not by its name: a
regular file whose bytes are a tree file's (a folder or a symlink never is one), and only such
files are ever deleted. Runs at the same time into one DIR: the first to swap its tree in wins;
the others stop with exit status 75 and write nothing. Run it again after "cpmx build" to refresh
the tree.`,
  exit: 'Exit status: 0 when written, 1 when the artifact cannot be loaded or DIR is refused, 2 on a usage error, 75 when another export into DIR ran at the same time and got there first (run again to replace its tree).',
  options: {
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    const [kind, dir, ...extra] = positionals;
    if (kind !== 'web') throw new UsageError(kind === undefined ? 'cpmx export takes a kind and a folder: cpmx export web DIR' : `cpmx export knows one kind, web, not "${kind}": cpmx export web DIR`);
    if (!dir) throw new UsageError('cpmx export web takes the folder to write: cpmx export web DIR');
    if (extra.length) throw new UsageError(`cpmx export web takes one folder, got also: ${extra.join(' ')}`);
    const started = performance.now();
    const { webTree } = await import('../../../build/web-tree.js');
    const { writeWebTree, ExportTargetError, ExportRaceError } = await import('../../../build/web-write.js');
    try {
      let date: string | undefined;
      // A folder that is not the export's is refused before the catalog is even read.
      // With geodata beside the artifact, each code's point goes in its shard (docs/geo.md).
      const { geoForCatalog } = await import('../../client/geodata.js');
      const written = writeWebTree(dir, () => {
        const catalog = catalogSource(dataOption(values.data)).get();
        date = catalog.header.source?.date;
        const geo = geoForCatalog(catalog);
        return webTree(catalog, catalog.header, typeof geo === 'string' ? undefined : geo);
      });
      for (const note of written.notes) process.stderr.write(`cpmx export web: note: ${note}\n`);
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      process.stdout.write(
        `cpmx export web: wrote ${written.dir}\n` +
          `  ${written.files.toLocaleString('en-US')} files (${written.links.toLocaleString('en-US')} of them direct names, links to hashed ones), ${written.bytes.toLocaleString('en-US')} bytes in ${seconds} s; catalog dated ${date ?? 'unknown'}\n` +
          '  serve the hashed files (NAME.<8 hex digits>.json) with "Cache-Control: public, max-age=31536000, immutable", the others (manifest.json, e.json, d0.json, c098.json, ...) with "Cache-Control: no-cache"\n',
      );
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof ExportTargetError)) throw error;
      process.stderr.write(`cpmx export web: ${error.message}\n`);
      return error instanceof ExportRaceError ? EXIT_RACE : EXIT.failed;
    }
  },
});
