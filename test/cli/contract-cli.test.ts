/**
 * Contract version 2 on the command line: one command per method under its COPOMEX name, its
 * segment as the argument and its parameters as options, help made from the method table.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeArtifact } from '../../build/write.js';
import { readArtifact } from '../../src/core/catalog.js';
import { FORMAT_VERSION } from '../../src/core/format.js';
import { METHODS, UNAVAILABLE_METHODS } from '../../src/core/request.js';
import type { ErrorCode } from '../../src/index.js';
import { CLI, errorOf, fixtureClient } from '../helpers.js';

const { dir, dataPath, client } = await fixtureClient();

function cpmx(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, CPMX_DATA: dataPath, CPMX_TOKEN: '', ...env }, encoding: 'utf8' });
  const json = result.stdout.startsWith('{') || result.stdout.startsWith('[');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, body: json ? (JSON.parse(result.stdout) as unknown) : undefined };
}


describe('a command per method', () => {
  it('answers as the library does, the segment as argument and the parameters as options', () => {
    const cases: [string[], unknown][] = [
      [['get_colonia_por_cp', '09810'], client.getColoniaPorCp('09810')],
      [['get_cp_por_estado', 'Estado de México'], client.getCpPorEstado('Estado de México')],
      [['get_cp_por_municipio', 'Benito Juárez', '--estado', 'Quintana Roo'], client.getCpPorMunicipio('Benito Juárez', { estado: 'Quintana Roo' })],
      [['get_colonia_por_municipio', 'benito juarez'], client.getColoniaPorMunicipio('Benito Juárez')],
      [['get_colonia_por_estado_municipio', '--estado', 'cdmx', '--municipio', 'Iztapalapa'], client.getColoniaPorEstadoMunicipio('cdmx', 'Iztapalapa')],
      [['search_cp_advanced', 'cdmx', '--colonia', 'los', '--limit', '1'], client.searchCpAdvanced('cdmx', { colonia: 'los', limit: 1 })],
      [['get_cp_advanced', 'cdmx', '--municipio', 'Iztapalapa'], client.searchCpAdvanced('cdmx', { municipio: 'Iztapalapa' })],
      [['get_estado_clave'], client.getEstadoClave()],
      [['get_municipio_clave_por_estado', 'Edomex'], client.getMunicipioClavePorEstado('Edomex')],
      [['get_municipio_clave_por_clave_estado', '9'], client.getMunicipioClavePorClaveEstado('9')],
      [['getCitiesByStateCode', '15'], client.getCitiesByStateCode('15')],
      [['cuenta/consultas_disponibles'], client.consultasDisponibles()],
    ];
    for (const [args, expected] of cases) {
      const run = cpmx([...args, '--token', 'demo']);
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.body, args.join(' ')).toEqual(expected);
    }
  });

  it('exits 1 with the error envelope', () => {
    const cases: [string[], ErrorCode][] = [
      [['get_cp_por_municipio', ''], 114],
      [['get_cp_por_municipio', 'Toluca', '--estado', 'cdmx'], 115],
      [['get_colonia_por_estado_municipio', '--estado', '', '--municipio', 'Iztapalapa'], 109],
      [['search_cp_advanced', 'cdmx', '--limit', '0'], 117],
      [['getCitiesByStateCode', 'abc'], 116],
      [['get_municipio_clave_por_clave_estado', '-1'], 116],
      [['get_cp_por_estado', 'Texas'], 110],
      [['query', '/query/get_vialidad/x'], 113],
    ];
    for (const [args, code] of cases) {
      const run = cpmx([...args, '--token', 'demo']);
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.body, args.join(' ')).toEqual(errorOf(code));
    }
  });

  it('answers consultas_disponibles without reading the catalog (null: the command line counts nothing)', () => {
    const run = cpmx(['cuenta/consultas_disponibles', '--data', join(dir, 'absent.msgpack')], { CPMX_TOKEN: 'demo' });
    expect(run.status).toBe(0);
    expect(run.body).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: null } });
    // No token: the local answer, as createClient() gives it without one (nothing counts credits here).
    expect(cpmx(['cuenta/consultas_disponibles']).body).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: null } });
  });

  it('refuses options a method does not take, and takes only its segment', () => {
    const option = cpmx(['get_estado_clave', '--estado', 'cdmx', '--token', 'demo']);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/--estado/);
    const two = cpmx(['get_cp_por_municipio', 'Benito', 'Juárez', '--token', 'demo']);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/takes one <municipio>/);
    expect(cpmx(['get_colonia_por_estado_municipio', 'cdmx', '--token', 'demo']).status).toBe(2);
    // A required argument missing is a usage error with the usage line, the segment's or an option's.
    for (const [args, missing] of [
      [['get_cp_por_municipio'], '<municipio>'],
      [['get_colonia_por_estado_municipio', '--municipio', 'Iztapalapa'], '--estado'],
      [['get_colonia_por_estado_municipio'], '--estado and --municipio'],
    ] as [string[], string][]) {
      const run = cpmx(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(`needs ${missing}.\nUsage: cpmx ${args[0]}`);
    }
  });

  it('has a help made from the method table: the segment and every parameter', () => {
    for (const [method, spec] of Object.entries(METHODS) as [string, { segment?: string; parameters: readonly string[] }][]) {
      const run = cpmx([method, '--help']);
      expect(run.status, method).toBe(0);
      expect(run.stdout, method).toContain(`Usage: cpmx ${method}${spec.segment ? ` <${spec.segment}>` : ''}`);
      for (const parameter of spec.parameters) expect(run.stdout, `${method} --${parameter}`).toMatch(new RegExp(`--${parameter} `));
    }
    expect(cpmx(['get_colonia_por_estado_municipio', '--help']).stdout).toContain('Usage: cpmx get_colonia_por_estado_municipio --estado E --municipio M');
    expect(cpmx(['search_cp_advanced', '--help']).stdout).toContain('Usage: cpmx search_cp_advanced <estado> [--municipio M] [--colonia C] [--limit N]');
    const overview = cpmx(['--help']).stdout;
    for (const method of Object.keys(METHODS)) expect(overview).toContain(`cpmx ${method}`);
    // The methods the catalog cannot answer have no command: `cpmx query` answers them (113).
    for (const method of UNAVAILABLE_METHODS) expect(overview).not.toContain(`cpmx ${method}`);
  });

  it('takes --token or CPMX_TOKEN for a streamed path without a token, or with an empty one', () => {
    const input = '/query/getCitiesByStateCode/15\n/query/getCitiesByStateCode/15?token=\n/query/getCitiesByStateCode/15?token=pruebas\n';
    const run = spawnSync(process.execPath, [CLI, 'query', '--token', 'demo'], { env: { ...process.env, CPMX_DATA: dataPath }, input, encoding: 'utf8' });
    const [first, second, third] = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { response: { ciudad: string[] } });
    expect(first).toEqual(client.getCitiesByStateCode('15'));
    expect(second).toEqual(first);
    expect(third!.response.ciudad[0]).toMatch(/prueba/);
  });

  it('says to rebuild an artifact of the format before, exit 2', () => {
    const old = join(dir, 'format-before.msgpack');
    const artifact = readArtifact(readFileSync(dataPath));
    writeFileSync(old, encodeArtifact({ ...artifact, header: { ...artifact.header, version: FORMAT_VERSION - 1 } }));
    const run = cpmx(['get_cp_por_estado', 'cdmx', '--token', 'demo', '--data', old]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${old}: is an artifact of format version ${FORMAT_VERSION - 1}, and this cpmx reads version ${FORMAT_VERSION}; run \`cpmx build\``);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
