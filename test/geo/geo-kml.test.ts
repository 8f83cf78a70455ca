/**
 * `cpmx build --geo` reading Correos de México's KML (test/fixtures/geo/mini.kml: the polygons
 * of mini.geojson written as Correos publishes KML, a code in SimpleData `d_codigo` or in
 * `<name>`, a hole as innerBoundaryIs, a MultiGeometry) gives the same geodata as the GeoJSON;
 * hostile KML (entity expansion, external entities, too large, not KML) is refused whole.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPolygonFiles, readPolygonInputs } from '../../build/geo/build-geo.js';
import { openGeo } from '../../src/core/geo/geo-index.js';
import { CLI, FIXTURE, root, tempDir } from '../helpers.js';
import { GEO_FIXTURE } from '../support/geo.js';

const KML_FIXTURE = join(root, 'test', 'fixtures', 'geo', 'mini.kml');
const dir = tempDir();

function build(name: string, polygons: string, ...options: string[]) {
  const out = join(dir, name, 'cpmx.msgpack');
  const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--out', out, '--geo', polygons, ...options], { encoding: 'utf8' });
  return { ...run, out, geo: join(dir, name, 'cpmx.geo') };
}

function hostile(name: string, text: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return build(name.replace('.kml', ''), path);
}

const KML_HEAD = '<?xml version="1.0" encoding="utf-8" ?>\n';
const PLACEMARK = (cp: string, name: string) =>
  `<Placemark><ExtendedData><SchemaData><SimpleData name="d_codigo">${cp}</SimpleData></SchemaData></ExtendedData><name>${name}</name>` +
  '<Polygon><outerBoundaryIs><LinearRing><coordinates>-99.118,19.35 -99.11,19.35 -99.11,19.357 -99.118,19.35</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>';

describe('KML input of cpmx build --geo', () => {
  it('reads the same polygons from the KML as from the GeoJSON, version included', async () => {
    const [kml] = await readPolygonInputs([KML_FIXTURE]);
    const [geojson] = readPolygonFiles([GEO_FIXTURE]);
    expect(kml!.version).toBe('v1');
    expect(kml!.version).toBe(geojson!.version);
    expect([...kml!.codes.keys()].sort()).toEqual([...geojson!.codes.keys()].sort());
    for (const [cp, polygons] of geojson!.codes) expect(kml!.codes.get(cp), cp).toEqual(polygons);
  });

  it('builds the same geodata from the KML as from the GeoJSON (cpmx build --geo FILE.kml)', () => {
    const fromKml = build('kml', KML_FIXTURE);
    expect(fromKml.stderr).not.toContain('refused');
    expect(fromKml.status).toBe(0);
    const fromGeoJson = build('geojson', GEO_FIXTURE);
    expect(fromGeoJson.status).toBe(0);
    // The reports differ only in where they wrote and how long it took.
    const report = (stdout: string) => stdout.split('\n').filter((line) => !/ wrote | bytes in /.test(line));
    expect(report(fromKml.stdout)).toEqual(report(fromGeoJson.stdout));
    expect(report(fromKml.stdout).join('\n')).toContain('2 codes with settlements and no polygon (in those states): 01010 11000');
    const a = openGeo(readFileSync(fromKml.geo));
    const b = openGeo(readFileSync(fromGeoJson.geo));
    expect(a.header.codes).toBe(b.header.codes);
    expect(a.header.states).toEqual(b.header.states);
    expect(a.header.version).toBe(b.header.version);
    for (const cp of ['09810', '09819', '03100', '77500', '01000', '99999']) {
      const slot = a.slotOf(cp);
      expect(slot, cp).toBeGreaterThanOrEqual(0);
      expect(a.geoJson(slot), cp).toEqual(b.geoJson(b.slotOf(cp)));
      expect(a.point(slot), cp).toEqual(b.point(b.slotOf(cp)));
    }
    expect(a.slotOf('11000')).toBe(-1);
  });

  it('says what to install when the optional packages are absent (a resolve hook hides @tmcw/togeojson)', () => {
    const hook = join(dir, 'hide-togeojson.mjs');
    writeFileSync(
      hook,
      "export async function resolve(specifier, context, next) {\n" +
        "  if (specifier === '@tmcw/togeojson') throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });\n" +
        '  return next(specifier, context);\n}\n',
    );
    const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hook).href)});`;
    const out = join(dir, 'absent', 'cpmx.msgpack');
    const run = spawnSync(process.execPath, ['--import', register, CLI, 'build', '--source', FIXTURE, '--out', out, '--geo', KML_FIXTURE], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('reading KML needs the optional packages @tmcw/togeojson and @xmldom/xmldom (npm install @tmcw/togeojson @xmldom/xmldom)');
    expect(run.stderr).toContain('Nothing was written.');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses entity expansion (billion laughs) before parsing, and writes nothing', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const run = hostile('laughs.kml', `${KML_HEAD}<!DOCTYPE kml [<!ENTITY l0 "lol">${laughs}]><kml><Document>${PLACEMARK('09810', '&l9;')}</Document></kml>`);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('laughs.kml: declares DOCTYPE, which a KML file never needs; refused');
    expect(run.stderr).toContain('Nothing was written.');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(run.out)).toBe(false);
  });

  it('refuses external entities, and reads no file outside the KML', () => {
    const run = hostile('external.kml', `${KML_HEAD}<!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Document>${PLACEMARK('09810', '&x;')}</Document></kml>`);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('external.kml: declares DOCTYPE');
    expect(run.stderr + run.stdout).not.toContain('root:');
    // An entity used without any declaration is not well-formed XML: refused, not read as text.
    const undeclared = hostile('undeclared.kml', `${KML_HEAD}<kml><Document>${PLACEMARK('09810', '&x;')}</Document></kml>`);
    expect(undeclared.status).toBe(1);
    expect(undeclared.stderr).toMatch(/undeclared\.kml: not well-formed XML \(.*&x;/);
  });

  it('refuses elements nested too deep (a stack overflow in the converter) with a reason, no crash trace', () => {
    const deep = hostile('deep.kml', `${KML_HEAD}<kml><Document><Placemark><name>09810</name>${'<MultiGeometry>'.repeat(100_000)}${'</MultiGeometry>'.repeat(100_000)}</Placemark></Document></kml>`);
    expect(deep.status).toBe(1);
    expect(deep.stderr).toContain("deep.kml: elements nested 100003 deep; Correos' KML nests about 10, and more than 64 is refused");
    expect(deep.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a file over --geo-max-bytes before reading it, and a vertex count over --geo-max-vertices', () => {
    const large = build('large', KML_FIXTURE, '--geo-max-bytes', '1000');
    expect(large.status).toBe(1);
    expect(large.stderr).toMatch(/mini\.kml: \d+ bytes, more than the 1000 a polygon file may have/);
    const many = build('many', KML_FIXTURE, '--geo-max-vertices', '20');
    expect(many.status).toBe(1);
    expect(many.stderr).toContain('more than 20 vertices in all');
  });

  it('refuses what is not KML, broken XML, a Placemark without a code and a KMZ, naming the file', () => {
    expect(hostile('html.kml', '<html><body>hola</body></html>').stderr).toContain('html.kml: not KML (its root element is html, not kml)');
    expect(hostile('broken.kml', `${KML_HEAD}<kml><Document><Placemark>`).stderr).toMatch(/broken\.kml: not well-formed XML/);
    const nameless = hostile('nameless.kml', `${KML_HEAD}<kml><Document>${PLACEMARK('', '').replace('<name></name>', '')}</Document></kml>`);
    expect(nameless.status).toBe(1);
    expect(nameless.stderr).toContain('nameless.kml: feature 1: d_codigo "" is not a postal code');
    const kmz = join(dir, 'zipped.kmz');
    writeFileSync(kmz, 'PK');
    expect(build('kmz', kmz).stderr).toContain('zipped.kmz: KMZ is zipped KML; unzip it and give the .kml file inside');
  });
});
