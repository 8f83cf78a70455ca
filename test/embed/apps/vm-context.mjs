/**
 * A test runner that runs ES modules in a context of its own, as Jest's ES modules do (node
 * --experimental-vm-modules): dist/cpmx.js as a vm module in a new context, its import of the
 * CommonJS bundle given the runner's own way (the bundle evaluated in that context). Prints the
 * first answer's code and whether the answer is an object of that context's realm.
 *   node --experimental-vm-modules vm-context.mjs DIST ARTIFACT
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
const dist = process.argv[2];
const context = vm.createContext({ process, URL, Buffer, console, TextEncoder, TextDecoder, performance, setTimeout, clearTimeout, setImmediate, queueMicrotask });
const entry = join(dist, 'cpmx.js');
/** A CommonJS file evaluated in the context, as the runner's own require would. */
function requireInContext(file) {
  const module = { exports: {} };
  const wrapper = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file }).runInContext(context);
  const require = (id) => (id.startsWith('.') ? requireInContext(join(dirname(file), id)) : Module.createRequire(file)(id));
  wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
  return module.exports;
}
const mod = new vm.SourceTextModule(readFileSync(entry, 'utf8'), {
  context,
  identifier: pathToFileURL(entry).href,
  initializeImportMeta(meta) { meta.url = pathToFileURL(entry).href; },
  async importModuleDynamically(specifier) {
    const exports = requireInContext(join(dist, specifier));
    const synthetic = new vm.SyntheticModule(['default'], function () { this.setExport('default', exports); }, { context });
    await synthetic.link(() => {});
    await synthetic.evaluate();
    return synthetic;
  },
});
await mod.link(() => { throw new Error('no static imports expected'); });
await mod.evaluate();
const client = mod.namespace.createClient({ dataPath: process.argv[3] });
const answer = client.infoCp('09810', { type: 'simplified' });
const realm = vm.runInContext('Object.prototype', context);
console.log(JSON.stringify({ cp: answer.response?.cp, ofContext: Object.getPrototypeOf(answer) === realm }));
