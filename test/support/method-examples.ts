/** The method table's rows and their examples (method-texts.ts) as the tests that call every row use them. */
import { METHOD_TEXTS, exampleTarget } from '../../src/core/method-texts.js';
import { METHODS, type Method, type Parameter, type SegmentKind } from '../../src/core/methods.js';

export const methods = Object.keys(METHODS) as Method[];
export type Row = { segment?: SegmentKind; parameters: readonly Parameter[]; required?: readonly Parameter[]; client?: string };
export const rowOf = (method: Method) => METHODS[method] as Row;

/** The row's example as a request target with `token`. */
export function withToken(method: Method, token: string): string {
  const target = exampleTarget(method);
  return `${target}${target.includes('?') ? '&' : '?'}token=${token}`;
}

/** The typed method's arguments for the row's example: the segment, the required parameters, an options object of the rest. */
export function exampleArgs(method: Method): unknown[] {
  const { segment, parameters, required = [] } = rowOf(method);
  const { example } = METHOD_TEXTS[method];
  const args: unknown[] = [];
  if (segment) args.push(example[segment]);
  for (const parameter of required) args.push(example[parameter]);
  const optional = parameters.filter((parameter) => !required.includes(parameter) && example[parameter] !== undefined);
  if (optional.length) args.push(Object.fromEntries(optional.map((parameter) => [parameter, example[parameter]])));
  return args;
}
