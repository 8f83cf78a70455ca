/**
 * cpmx's types as an app gets them, from the packed tarball installed into an empty project
 * with no @types/node (a browser or edge app has none; TypeScript 7 includes no @types by
 * default): test/embed/types-app/app.ts is checked strictly, without skipLibCheck, under the
 * lowest and newest TypeScript 5 and the newest TypeScript, with `moduleResolution` nodenext
 * and bundler, and under TypeScript 5 with node10 (which reads no `exports`). The TypeScripts
 * are installed from npm into node_modules/.cache/ once.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, tempDir } from '../helpers.js';
import { installCached } from '../support/npm-cache.js';
import { packAndInstall } from '../support/packed.js';

const run = promisify(execFile);
const dir = tempDir();
let project: string;

const TYPESCRIPTS = ['5.0.4', '5.9.3', '7.0.2'];
const compilers = new Map<string, string>();

beforeAll(async () => {
  ({ project } = packAndInstall(dir, 'types-app'));
  copyFileSync(join(root, 'test', 'embed', 'types-app', 'app.ts'), join(project, 'app.ts'));
  for (const version of TYPESCRIPTS) {
    const folder = await installCached(`cpmx-typescript/${version}`, [`typescript@${version}`]);
    compilers.set(version, join(folder, 'node_modules', 'typescript', 'bin', 'tsc'));
  }
}, 300_000);

/** The app's tsconfig: strict, cpmx's declaration files checked too (TypeScript's own lib files are not: slow, and not cpmx's), no @types of any kind. */
function tsconfig(name: string, module: string, moduleResolution: string): string {
  const file = `tsconfig.${name}.json`;
  const compilerOptions = { strict: true, target: 'es2022', module, moduleResolution, types: [], skipLibCheck: false, skipDefaultLibCheck: true, noEmit: true };
  writeFileSync(join(project, file), JSON.stringify({ compilerOptions, files: ['app.ts'] }, null, 2));
  return file;
}

async function check(version: string, config: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [compilers.get(version)!, '-p', config, '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
    return stdout.trim();
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || String(error);
  }
}

describe('the packed package’s types, with no @types/node', () => {
  it('come into the app with nothing of Node’s', () => {
    expect(existsSync(join(project, 'node_modules', '@types', 'node'))).toBe(false);
  });

  const cases: [string, string, string, string][] = [];
  for (const version of TYPESCRIPTS) {
    cases.push([version, 'nodenext', 'nodenext', 'nodenext']);
    cases.push([version, 'bundler', 'esnext', 'bundler']);
    if (version.startsWith('5.')) cases.push([version, 'node10', 'commonjs', 'node10']);
  }
  for (const [version, name, module, resolution] of cases) {
    it(`check strictly under TypeScript ${version}, moduleResolution ${name}`, async () => {
      expect(await check(version, tsconfig(`${version}-${name}`, module, resolution))).toBe('');
    });
  }
});
