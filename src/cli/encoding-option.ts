/** `--encoding NAME` of the commands that read address files (validate, parse): its spec and its reading. */
import type { Encoding } from '../validate/encoding.js';
import { UsageError } from './command.js';

export const ENCODING_OPTION = {
  encoding: { type: 'string', value: 'NAME', help: "the input's encoding: utf-8, utf-16le, utf-16be, windows-1252 (latin1) (default: detected)" },
} as const;

/** The encoding `--encoding` names, undefined when not given; a usage error for any other name. */
export async function encodingOption(flag: string | undefined): Promise<Encoding | undefined> {
  if (flag === undefined) return undefined;
  const { encodingNamed, ENCODINGS } = await import('../validate/encoding.js');
  const encoding = encodingNamed(flag);
  if (!encoding) throw new UsageError(`--encoding must name one of ${ENCODINGS.join(', ')} (or latin1), got "${flag}"`);
  return encoding;
}
