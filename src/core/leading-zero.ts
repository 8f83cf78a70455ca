/**
 * A postal code that lost its leading zero: 09810 kept as the number 9810 (by a spreadsheet, a
 * CSV import, or JavaScript code holding codes as numbers) answers 102. The one rule by which
 * the command line (on stderr) and the library (as a process warning) say which code was meant.
 * A hint never changes an answer.
 */
import { TEST_TOKEN, isSuccess, type Body } from './contract.js';
import { rawRequest, type Method, type RawRequest } from './methods.js';

/**
 * When `body` answered a 4-digit `segment` of a code method with 102 and the code with a leading
 * zero exists (asked through `exists`, which must cost nothing: no credit), the padded code; else
 * undefined. Test mode has no catalog to say what exists.
 */
export function lostLeadingZero(method: Method, segment: string | undefined, body: Body, token: string | undefined, exists: (raw: RawRequest) => Body): string | undefined {
  if (method !== 'info_cp' && method !== 'get_colonia_por_cp') return undefined;
  if (token === TEST_TOKEN || segment === undefined || !/^\d{4}$/.test(segment)) return undefined;
  if ((body as { code_error?: number }).code_error !== 102) return undefined;
  const padded = `0${segment}`;
  return isSuccess(exists(rawRequest({ method, segment: padded, token }))) ? padded : undefined;
}

/** The hint's words, with how to ask for the padded code (`cpmx info_cp 09810`, `infoCp('09810')`). */
export function lostLeadingZeroHint(padded: string, ask: string): string {
  return `${padded} exists: postal codes have 5 digits, and a leading zero is often lost (${ask})`;
}
