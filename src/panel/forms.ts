/**
 * What a form sends: the body read within bounds, and each field checked, with the message a
 * person reads when it is not right (Spanish, saying what to change).
 */
import type { IncomingMessage } from 'node:http';
import { STATUS } from '../wire/status.js';
import { formatNumber } from './layout.js';
import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from './password.js';

/** Bodies larger than this are refused (the panel's forms send well under 1 KB). */
export const BODY_MAX = 16 * 1024;

/** A request the panel refuses as a whole, with its HTTP status and what to tell the person. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The form's fields; refuses other content types and bodies over BODY_MAX. */
export function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return Promise.reject(new Refusal(STATUS.unsupportedMediaType, 'El formulario debe enviarse como application/x-www-form-urlencoded.'));
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_MAX) return Promise.reject(new Refusal(STATUS.tooLarge, 'El formulario es demasiado grande.'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) {
        req.removeAllListeners('data');
        req.pause();
        reject(new Refusal(STATUS.tooLarge, 'El formulario es demasiado grande.'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const wrong = <T>(message: string): Checked<T> => ({ ok: false, message });

// Control characters (C0, DEL, C1) have no place in a name or an address.
const CONTROL = /\p{Cc}/u;

/** An email address, trimmed and in lower case (one account per address, whatever its case). */
export function checkEmail(given: string | null): Checked<string> {
  const email = (given ?? '').trim().toLowerCase();
  if (email === '') return wrong('Escriba su correo electrónico.');
  if (email.length > 254 || CONTROL.test(email) || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    return wrong('El correo electrónico no es válido; debe ser como nombre@ejemplo.mx.');
  }
  return ok(email);
}

export function checkPassword(given: string | null): Checked<string> {
  const password = given ?? '';
  const length = passwordLength(password);
  if (length < PASSWORD_MIN) return wrong(`La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`);
  if (length > PASSWORD_MAX) return wrong(`La contraseña debe tener como máximo ${PASSWORD_MAX} caracteres.`);
  return ok(password);
}

export const NAME_MAX = 100;

/** A name (of an account or a project): trimmed, 1 to NAME_MAX characters, no control characters. */
export function checkName(given: string | null, what: 'account' | 'project'): Checked<string> {
  const name = (given ?? '').normalize('NFC').trim();
  const label = what === 'account' ? 'su nombre o el de su organización' : 'el nombre del proyecto';
  if (name === '') return wrong(`Escriba ${label}.`);
  if ([...name].length > NAME_MAX) return wrong(`El nombre debe tener como máximo ${NAME_MAX} caracteres.`);
  if (CONTROL.test(name)) return wrong('El nombre no puede tener caracteres de control.');
  return ok(name);
}

export const GRANT_MAX = 10_000_000;

export function checkCredits(given: string | null): Checked<number> {
  const text = (given ?? '').trim();
  if (!/^\d{1,8}$/.test(text) || Number(text) < 1 || Number(text) > GRANT_MAX) {
    return wrong(`Escriba un número entero de créditos, de 1 a ${formatNumber(GRANT_MAX)}.`);
  }
  return ok(Number(text));
}
