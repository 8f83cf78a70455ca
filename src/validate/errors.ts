/** The input cannot be read at all (empty, no header, no postal-code column, ...): exit status 2. */
export class InputError extends Error {
  override readonly name: string = 'InputError';
}
