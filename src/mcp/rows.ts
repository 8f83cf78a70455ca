/**
 * The lookups `cpmx mcp` offers as tools, read from the contract's method table (methods.ts)
 * and its texts (method-texts.ts): the arguments' JSON Schema, the request named arguments
 * make, and the words, all the row's, as the command line, its help and OpenAPI have them.
 */
import { METHOD_TEXTS, argumentsSchema, type JsonSchema } from '../core/method-texts.js';
import { METHODS, namedRequest, type Method, type Parameter, type RawRequest, type SegmentKind } from '../core/methods.js';

/** The value of each argument by its name: the segment's kind (`cp`, `estado`, ...) and the parameters'. */
export type NamedValues = Readonly<Partial<Record<SegmentKind | Parameter, string>>>;

export interface LookupRow {
  method: Method;
  /** One line: the tool's title. */
  summary: string;
  /** What it answers, its arguments named as the tool names them. */
  description: string;
  /** Arguments that answer with data: shown to the agent as an example. */
  example: NamedValues;
  /** The arguments' JSON Schema (an object; the segment and required parameters required). */
  schema: JsonSchema;
  /** The request the named values make. */
  request(values: NamedValues): RawRequest;
}

/** A tool's texts name an argument as its JSON: `"type"`, `"type": "simplified"`. */
const argumentName = (parameter: Parameter, value?: string) => (value === undefined ? `"${parameter}"` : `"${parameter}": "${value}"`);

/**
 * Every lookup offered as a tool, in the table's order. Left out: an older name of a method
 * the clients have under another (an agent needs one name for one thing), and a method whose
 * success costs nothing but counts credits (nothing counts them here: it answers null).
 */
export function lookupRows(): LookupRow[] {
  return (Object.keys(METHODS) as Method[])
    .filter((method) => {
      const row: { client?: string; credit: string } = METHODS[method];
      return row.client !== undefined && row.credit === 'spend';
    })
    .map((method) => {
      const texts = METHOD_TEXTS[method];
      return {
        method,
        summary: texts.summary,
        // The help's lines are wrapped for a terminal; a tool's description is one paragraph.
        description: texts.description(argumentName).replace(/\s*\n\s*/g, ' '),
        example: texts.example,
        schema: argumentsSchema(method),
        request: (values) => namedRequest(method, values, undefined),
      };
    });
}
