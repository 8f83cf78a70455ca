/** The real catalog's rows read plainly (split on CRLF and "|", columns by header name), independent of the compiler. */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { realCatalogPath } from '../helpers.js';

export interface RawRow {
  cp: string;
  name: string;
  type: string;
  municipio: string;
  estado: string;
  ciudad: string;
  cEstado: string;
  cMnpio: string;
  cCiudad: string;
}

/** The data rows of a catalog text, columns found by their header names. */
export function readRows(text: string): RawRow[] {
  const lines = text.split('\r\n');
  const header = lines[1]!.split('|').map((name) => name.trim().toLowerCase());
  const at = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`no column ${name}`);
    return index;
  };
  const columns = ['d_codigo', 'd_asenta', 'd_tipo_asenta', 'd_mnpio', 'd_estado', 'd_ciudad', 'c_estado', 'c_mnpio', 'c_cve_ciudad'].map(at);
  return lines
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const f = line.split('|').map((v) => v.trim());
      const [cp, name, type, municipio, estado, ciudad, cEstado, cMnpio, cCiudad] = columns.map((i) => f[i]!) as [string, string, string, string, string, string, string, string, string];
      return { cp, name, type, municipio, estado, ciudad, cEstado, cMnpio, cCiudad };
    });
}

/** The rows of the real national catalog beside the repository. */
export function realRows(): RawRow[] {
  return readRows(Buffer.from(unzipSync(readFileSync(realCatalogPath()))['CPdescarga.txt']!).toString('latin1'));
}
