/**
 * Request paths for fuzzing the router, from a seed: mostly near the contract's own paths (real
 * codes and states, their prefixes and encodings, tokens, `type`), bent every which way (wrong
 * lengths and characters, broken percent-encodings, extra or missing segments, repeated and
 * unknown parameters, fragments, full URLs), and some plain noise. Every path is one an HTTP/1.1
 * request line can carry (printable ASCII, starting with `/` or a scheme) and one the HTTP
 * server routes like any other (not `/health`, not past the 2,048-character limit).
 */
import { random } from '../../bench/workload.js';
import { METHODS as CONTRACT_METHODS, UNAVAILABLE_METHODS } from '../../src/core/request.js';

/** What the generator draws real values from (taken from the catalog under test). */
export interface FuzzMaterial {
  codes: string[];
  states: string[];
  municipalities: string[];
}

const PRINTABLE = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
const METHODS: readonly string[] = [...Object.keys(CONTRACT_METHODS), ...UNAVAILABLE_METHODS];
const METHOD_NOISE = ['INFO_CP', 'info-cp', 'info_cp2', 'Search_cp', 'get_estado', 'get_municipios_por_estado', '', '%69nfo_cp', 'info_cp%00', 'info%5Fcp', 'cuenta', 'cuenta%2Fconsultas_disponibles', 'getcitiesbystatecode'];
const ALIASES = ['CDMX', 'cdmx', 'Distrito Federal', 'Estado de México', 'Edomex', 'Coahuila', 'Michoacán', 'Veracruz', 'estado de mexico', ' Jalisco ', 'JALISCO', 'Texas', ''];
const ENCODING_NOISE = ['%', '%2', '%zz', '%C3', '%C3%28', '%E0%A4', '%ED%A0%80', '%F0%9F%98%80', '%00', '%2F', '%3F', '%23', '%26', '%3D', '%25', '+', '%20', '%0A'];

/** Percent-encodes `text` as UTF-8, each character with probability `share`; unsafe ASCII always. */
function encode(text: string, next: () => number, share: number): string {
  let out = '';
  for (const char of text) {
    const plain = /^[A-Za-z0-9\-._~]$/.test(char);
    if (plain && next() >= share) out += char;
    else out += [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** `count` fuzzed paths from `seed`. */
export function fuzzPaths(seed: number, count: number, material: FuzzMaterial): string[] {
  const next = random(seed);
  const chance = (p: number) => next() < p;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const digits = (length: number) => Array.from({ length }, () => String(Math.floor(next() * 10))).join('');
  const noise = (length: number) => Array.from({ length }, () => pick([...PRINTABLE])).join('');

  const segment = (): string => {
    const code = pick(material.codes);
    switch (Math.floor(next() * 12)) {
      case 0:
      case 1:
        return code;
      case 2:
        return code.slice(0, 1 + Math.floor(next() * 5));
      case 3:
        return digits(chance(0.5) ? 5 : Math.floor(next() * 8));
      case 4:
        return encode(code, next, 0.5);
      case 5:
        return `-${digits(1 + Math.floor(next() * 5))}`;
      case 6:
        return encode(pick(material.states), next, 0.2);
      case 7:
        return chance(0.5) ? encode(pick(ALIASES), next, 0.3) : encode(pick(material.municipalities), next, 0.2).replaceAll('%20', chance(0.5) ? '+' : '%20');
      case 8:
        return code.slice(0, 2) + pick(ENCODING_NOISE) + code.slice(2, 4);
      case 9:
        return chance(0.5) ? noise(1 + Math.floor(next() * 8)) : pick(['9', '09', '00', '33', '1', ' 9', '7a', '123']);
      case 10:
        return `${code}${pick(['.0', ' ', '%20', 'x', '0', '/', '//'])}`.replace(' ', '%20');
      default:
        return encode(`${code.slice(0, 4)}${pick(['٣', '５', '²', 'é', '\u0000', '\t'])}`, next, 0);
    }
  };

  const query = (): string => {
    const parameters: string[] = [];
    const token = pick(['demo', 'demo', 'demo', 'pruebas', 'pruebas', 'pru%65bas', '', 'x+y', '%', noise(4)]);
    if (!chance(0.1)) parameters.push(chance(0.05) ? `token` : `token=${token}`);
    if (chance(0.35)) parameters.push(`type=${pick(['simplified', 'simplified', 'SIMPLIFIED', '', 'full', 'simplified%20', 'simpli%66ied'])}`);
    if (chance(0.15)) parameters.push(pick([`x=${noise(3)}`, '', '=', '&', `token=${pick(['pruebas', 'demo', ''])}`, `type=${pick(['simplified', 'x'])}`, 'TOKEN=demo']));
    // The parameters of the version-2 methods, real and bent.
    if (chance(0.3)) parameters.push(`estado=${encode(pick([...material.states, ...ALIASES]), next, 0.2)}`);
    if (chance(0.3)) parameters.push(`municipio=${encode(pick([...material.municipalities, '', ' ', 'Nowhere']), next, 0.2).replaceAll('%20', '+')}`);
    if (chance(0.2)) parameters.push(`colonia=${encode(pick(['centro', 'Centro', 'san', 'a', '', 'zzzz', 'é']), next, 0.3)}`);
    if (chance(0.2)) parameters.push(`limit=${pick(['1', '10', '100000', '100001', '0', '-1', '', 'x', '05', digits(3)])}`);
    if (chance(0.3)) parameters.sort(() => next() - 0.5);
    return parameters.length === 0 && chance(0.5) ? '' : `?${parameters.join('&')}`;
  };

  const path = (): string => {
    if (chance(0.03)) return `/${noise(Math.floor(next() * 40))}`;
    const origin = chance(0.08) ? pick(['http://localhost', 'https://api.copomex.com', 'HTTP://A:1', 'http://']) : '';
    const prefix = chance(0.93) ? '/query/' : pick(['/Query/', '/query//', '/queries/', '/', '/query', '//query/', '/query/query/']);
    const method = chance(0.9) ? pick(METHODS) : pick(METHOD_NOISE);
    let text = origin + prefix + method;
    if (chance(method === 'get_estados' ? 0.1 : 0.85)) text += `/${segment()}`;
    if (chance(0.06)) text += `/${segment()}`;
    if (chance(0.12)) text += '/';
    text += query();
    if (chance(0.04)) text += `#${noise(Math.floor(next() * 12))}`;
    // A few characters changed anywhere in the path (an origin stays as it is: a bent one is
    // no longer a request line HTTP can carry).
    if (chance(0.1)) {
      const chars = [...text];
      const first = origin.length + 1;
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) chars[first + Math.floor(next() * (chars.length - first))] = pick([...PRINTABLE]);
      text = chars.join('');
    }
    return text;
  };

  const paths: string[] = [];
  while (paths.length < count) {
    const candidate = path();
    if (candidate.length <= 2048 && !candidate.startsWith('/health') && /^[\x21-\x7e]+$/.test(candidate)) paths.push(candidate);
  }
  return paths;
}
