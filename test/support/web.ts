/**
 * For the web tree's tests: exporting one as users do (the compiled CLI), and the calls that
 * compare cpmx/web with the Node client, as JSON-safe [method, ...arguments] lists that a
 * page or a worker can run too.
 */
import { spawnSync } from 'node:child_process';
import { random } from '../../bench/workload.js';
import type { CpmxClient } from '../../src/index.js';
import { CLI, ok } from '../helpers.js';

export function exportWeb(artifact: string, dir: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, 'export', 'web', dir, '--data', artifact], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A call of a lookup method, by name, with its arguments. */
export type Call = [method: string, ...args: unknown[]];

/** Runs a call on a client (Node's answers now, the web one a promise). */
export function callOn(client: object, [method, ...args]: Call): unknown {
  return (client as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
}

/** `count` codes of the catalog at random (seeded), with repeats possible. */
export function randomCodes(node: CpmxClient, count: number, seed: number): string[] {
  const all = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((digit) => ok(node.searchCp(String(digit))).response.cp);
  const next = random(seed);
  return Array.from({ length: count }, () => all[Math.floor(next() * all.length)]!);
}

/** A form's flow in `count` states at random: the state, then one of its municipalities at random. */
export function randomFlows(node: CpmxClient, count: number, seed: number): [estado: string, municipio: string][] {
  const states = ok(node.getEstados()).response.estado;
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const estado = states[Math.floor(next() * states.length)]!;
    const municipios = ok(node.getMunicipioPorEstado(estado)).response.municipios;
    return [estado, municipios[Math.floor(next() * municipios.length)]!];
  });
}

/**
 * Every method, with good and bad arguments: codes that exist and do not, malformed ones (each
 * error of the contract), states by name, alias and key, municipalities in one state and in
 * all, written forms (`N.L.`, `Alc. Iztapalapa`), the `colonia` filter and `limit`, and test mode.
 */
export function methodCalls(node: CpmxClient, seed: number): Call[] {
  const codes = randomCodes(node, 20, seed);
  const flows = randomFlows(node, 6, seed + 1);
  const calls: Call[] = [];
  for (const cp of [...codes, '00000', '99999', '0', '', '1234', '123456', '-1234', 'abcde', '０１０００']) {
    calls.push(['infoCp', cp], ['infoCp', cp, { type: 'simplified' }], ['infoCp', cp, { type: 'complete' }], ['getColoniaPorCp', cp]);
  }
  for (const partial of ['0', '1', '09', '098', '0981', '09810', '99', '999', '', '-1', '123456']) calls.push(['searchCp', partial]);
  calls.push(['getEstados'], ['getEstadoClave'], ['consultasDisponibles']);
  for (const estado of [...flows.map(([e]) => e), 'CDMX', 'edomex', ' veracruz ', 'MICHOACÁN', 'Nowhere', ' ', '']) {
    calls.push(['getMunicipioPorEstado', estado], ['getCpPorEstado', estado], ['getMunicipioClavePorEstado', estado], ['searchCpAdvanced', estado, { limit: 5 }]);
  }
  for (const [estado, municipio] of [...flows, ['CDMX', 'Nowhere'], ['Nowhere', 'Centro'], [' ', 'Centro'], ['Jalisco', ' ']] as [string, string][]) {
    calls.push(
      ['getColoniaPorEstadoMunicipio', estado, municipio],
      ['getCpPorMunicipio', municipio, { estado }],
      ['getColoniaPorMunicipio', municipio, { estado }],
      ['searchCpAdvanced', estado, { municipio }],
      ['searchCpAdvanced', estado, { municipio, limit: 2 }],
      ['searchCpAdvanced', estado, { municipio, limit: 'x' }],
    );
  }
  // Names as people write them, past the catalog's spellings: read by the lazily loaded name reading.
  for (const [estado, municipio] of [['N.L.', 'Gral. Escobedo'], ['CDMX', 'Alc. Iztapalapa'], ['Jal.', 'Mpio. de Zapopan'], ['Edo. Méx.', 'Nezahualcóyotl'], ['MX-NLE', 'Sta. Catarina'], ['Q. Roo', 'Del. Nowhere']]) {
    calls.push(['getMunicipioPorEstado', estado], ['getColoniaPorEstadoMunicipio', estado, municipio], ['getCpPorMunicipio', municipio, { estado }], ['searchCpAdvanced', estado, { municipio, limit: 3 }]);
  }
  calls.push(['getCpPorMunicipio', 'Gral. Escobedo'], ['getColoniaPorMunicipio', 'Alc. Coyoacán']);
  // One name in many states, answered from every state's file.
  for (const municipio of ['Benito Juárez', 'JUAREZ', 'Nowhere', flows[0]![1]]) calls.push(['getCpPorMunicipio', municipio], ['getColoniaPorMunicipio', municipio]);
  calls.push(['searchCpAdvanced', 'Colima', { colonia: 'centro' }], ['searchCpAdvanced', 'CDMX', { municipio: 'Coyoacán', colonia: 'del  carmen', limit: 3 }], ['searchCpAdvanced', 'Colima', { colonia: 'zzzzqq' }]);
  for (const clave of ['9', '09', '1', '32', '33', '0', 'x', '123', 14]) calls.push(['getMunicipioClavePorClaveEstado', clave], ['getCitiesByStateCode', clave]);
  return calls;
}
