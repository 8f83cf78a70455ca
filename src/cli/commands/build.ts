/** `cpmx build`: compile the official catalog into the artifact the lookups read. */
import { packageRoot } from '../../package-root.js';
import { EXIT, HELP_OPTION, command, noPositionals } from '../command.js';
import { noCatalogHelp } from '../hints.js';

export const buildCommand = command({
  name: 'build',
  synopsis: '',
  usageOptions: '[--source FILE] [--out FILE] [--if-found]',
  summary: 'compile the official catalog into the artifact',
  description: `Compiles the official catalog of Correos de México (CPdescarga.txt, or the CPdescargatxt.zip
it is downloaded as; Latin-1 or a UTF-8 re-save) into the artifact the lookups read.

The catalog is looked for in this order: --source FILE; the CPMX_CATALOG environment
variable; data/CPdescarga.txt and data/CPdescargatxt.zip in the package (and, in a git
checkout of cpmx, ../shared/data/sepomex/CPdescargatxt.zip). The artifact is written to
--out FILE, default data/cpmx.msgpack in the package, through a temporary file: a refused
catalog never replaces a good artifact. Installed as a dependency, write it outside
node_modules (--out) and point CPMX_DATA at it: the next install replaces the package.`,
  exit: 'Exit status: 0 when built, 1 when the catalog is missing or refused, 2 on a usage error.',
  options: {
    source: { type: 'string', value: 'FILE', help: 'the catalog to compile' },
    out: { type: 'string', value: 'FILE', help: 'where to write the artifact' },
    'if-found': { type: 'boolean', help: 'when no catalog is found by default, say so and exit 0 (used by npm install)' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'build', 'Use --source FILE.');
    const { buildArtifact, defaultCatalogPaths, findCatalog, CatalogError, ArtifactWriteError } = await import('../../../build/build.js');
    const location = findCatalog(values.source);
    if (!location) {
      process.stderr.write(noCatalogHelp(defaultCatalogPaths, packageRoot));
      return values['if-found'] ? EXIT.ok : EXIT.failed;
    }
    const tty = process.stderr.isTTY === true;
    process.stderr.write(`cpmx build: reading ${location.path} (${location.from})\n`);
    try {
      const summary = await buildArtifact({
        source: location.path,
        out: values.out,
        onProgress: (rows) => {
          if (tty) process.stderr.write(`\r  ${rows.toLocaleString('en-US')} rows`);
          else if (rows % 50_000 === 0) process.stderr.write(`  ${rows.toLocaleString('en-US')} rows\n`);
        },
      });
      if (tty) process.stderr.write('\r\x1b[K');
      const n = (value: number) => value.toLocaleString('en-US');
      process.stdout.write(
        `cpmx build: wrote ${summary.out}\n` +
          `  rows ${n(summary.rows)}, codes ${n(summary.codes)}, states ${n(summary.states)}, municipalities ${n(summary.municipalities)}\n` +
          `  ${n(summary.bytes)} bytes in ${(summary.milliseconds / 1000).toFixed(2)} s; source ${summary.encoding}, sha256 ${summary.sha256}\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (tty) process.stderr.write('\n');
      if (error instanceof CatalogError) {
        process.stderr.write(`cpmx build: refused: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
        return EXIT.failed;
      }
      if (error instanceof ArtifactWriteError) {
        process.stderr.write(`cpmx build: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
        return EXIT.failed;
      }
      throw error;
    }
  },
});
