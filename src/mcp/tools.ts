/**
 * The tools of `cpmx mcp`: one per lookup of the method table (rows.ts), plus address
 * validation and one-line address reading. Each answers with the very body the library
 * gives, through the router like every adapter; nothing here knows the MCP SDK, so the tools
 * are the same whatever carries them.
 */
import { createClient, type CpmxClient } from '../client/client.js';
import { isSuccess, type Body } from '../core/contract.js';
import type { JsonSchema } from '../core/method-texts.js';
import type { RawRequest } from '../core/methods.js';
import { answerer } from '../client/answerer.js';
import { validateAddress } from '../validate/address.js';
import { COLUMN_NAMES, FIELDS } from '../validate/fields.js';
import { parseAddress } from '../validate/parse.js';
import { MAX_SUGGESTED_CODES } from '../validate/result.js';
import { lookupRows, type LookupRow } from './rows.js';

/** A JSON Schema of an object's properties, as MCP's `inputSchema` takes it. */
export interface InputSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

/** What a tool call answers: its JSON as text, the same as structured content when it is an object. */
export interface ToolAnswer {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema;
  /** Every tool only reads the catalog: the same call answers the same. */
  annotations: { readOnlyHint: true; idempotentHint: true; destructiveHint: false; openWorldHint: false };
  call(args: Record<string, unknown>): ToolAnswer;
}

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

const ENVELOPE = `Answers the COPOMEX API's JSON body: {"error": false, "code_error": 0, "error_message": null, "response": ...}, or on error {"error": true, "code_error": N, "error_message": "...", "response": null} (101-117 as COPOMEX documents them).`;

/** A tool answer of `value`; `isError` for an error envelope or a refused call. */
function answerOf(value: unknown, isError = false): ToolAnswer {
  const answer: ToolAnswer = { content: [{ type: 'text', text: JSON.stringify(value) }] };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) answer.structuredContent = value as Record<string, unknown>;
  if (isError) answer.isError = true;
  return answer;
}

/** A call refused before it reaches the router (an argument of no name the tool knows, a value that is not text): said plainly. */
function refused(tool: string, why: string): ToolAnswer {
  return { content: [{ type: 'text', text: `cpmx ${tool}: ${why}` }], isError: true };
}

/** What a JSON value is, in words. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The arguments as text by name, as the library reads its parameters (a number is read as
 * written, as a path would carry it; null is absent); the reason when one cannot be.
 */
function textArguments(tool: string, args: Record<string, unknown>, accepted: readonly string[]): Record<string, string | undefined> | string {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(args)) {
    if (!accepted.includes(name)) {
      return accepted.length ? `unknown argument "${name}"; ${tool} takes ${accepted.map((a) => `"${a}"`).join(', ')}` : `${tool} takes no arguments, got "${name}"`;
    }
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') values[name] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) values[name] = String(value);
    else return `"${name}" must be text, got ${kindOf(value)}`;
  }
  return values;
}

/** What makes a tool: its words, its arguments (`accepted`: every name it reads, beyond the schema's), and its answer to them as text. */
interface ToolSpec {
  name: string;
  title: string;
  description: string;
  properties: InputSchema['properties'];
  required: string[];
  accepted?: readonly string[];
  answer(values: Record<string, string | undefined>): ToolAnswer;
}

/** A tool: its input schema from its arguments, and calls refused plainly before `answer` when an argument cannot be read. */
function toolOf({ name, title, description, properties, required, accepted = Object.keys(properties), answer }: ToolSpec): Tool {
  return {
    name,
    title,
    description,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    annotations: READ_ONLY,
    call(args) {
      const values = textArguments(name, args, accepted);
      return typeof values === 'string' ? refused(name, values) : answer(values);
    },
  };
}

/** A lookup of the table as a tool, answered by `answer`. */
function lookupTool(row: LookupRow, answer: (raw: RawRequest | undefined) => Body): Tool {
  const { properties, required } = row.schema as { properties: InputSchema['properties']; required: string[] };
  // The example as JSON arguments: a number where the schema takes one (limit).
  const example = Object.fromEntries(Object.entries(row.example).map(([name, value]) => [name, properties[name]?.type === 'integer' ? Number(value) : value]));
  return toolOf({
    name: row.method,
    title: row.summary,
    description: `${row.description} Example: ${JSON.stringify(example)}. ${ENVELOPE}`,
    properties,
    required,
    answer(values) {
      // A missing or empty argument is absent, as an empty query parameter is: the router says which (101, 109, 114).
      const present = Object.fromEntries(Object.entries(values).filter(([, value]) => value));
      const body = answer(row.request(present));
      return answerOf(body, !isSuccess(body));
    },
  });
}

/** The keys `validateAddress` reads, each field by its every name. */
const RECORD_KEYS: readonly string[] = FIELDS.flatMap((field) => COLUMN_NAMES[field]);

const FIELD_TEXTS: Record<(typeof FIELDS)[number], string> = {
  cp: 'The postal code (código postal), e.g. "03940"; a code that lost its leading zero (3940) is suggested back.',
  estado: 'The state as written: full name, abbreviation or code (Nuevo León, N.L., NLE, 19, Edo. Méx., CDMX).',
  municipio: 'The municipality or alcaldía as written (Alc. Iztapalapa, Mpio. de Zapopan, Gral. Escobedo).',
  asentamiento: 'The settlement (colonia) as written, its type in front or not (Col. Roma Norte, Fracc. Las Palmas, U.H. ...).',
  ciudad: 'The city (ciudad) as written.',
};

function validateTool(client: CpmxClient): Tool {
  return toolOf({
    name: 'validate',
    title: 'check an address record against its postal code',
    description:
      'Checks that the state (estado), municipality (municipio), settlement (asentamiento, colonia) and city (ciudad) of an address agree with its postal code (cp), ' +
      'as `cpmx validate` checks each record of a file. Answers {"valid", "errors": [{"field", "code_error", "error_message"}], "suggestions"}, and "codes" and "warnings" when it has them: ' +
      '101, 102, 104, 105 for the code (as the API answers them), 120 estado, 121 municipio, 122 asentamiento, 123 ciudad not matching the code; ' +
      'suggestions give the probably right value of each field at fault: when the names agree with one another and with another code, that code (suggestions.cp), never the names of the code as written. ' +
      `Without a code (or with an impossible one), the code the names name is suggested; when they fit several, "codes" lists up to ${MAX_SUGGESTED_CODES} and none is suggested. ` +
      'Warning 125: a city the catalog cannot check (the code has none), the record still valid. Names are matched ignoring case, accents, punctuation and abbreviations; empty fields are not checked. ' +
      `The keys may also be named ${RECORD_KEYS.filter((key) => !(FIELDS as readonly string[]).includes(key)).join(', ')}.`,
    properties: Object.fromEntries(FIELDS.map((field) => [field, { type: 'string', description: FIELD_TEXTS[field] }])),
    // No field is required: the code is what a record without one asks for.
    required: [],
    accepted: RECORD_KEYS,
    answer: (values) => answerOf(validateAddress(client, values)),
  });
}

function parseTool(client: CpmxClient): Tool {
  return toolOf({
    name: 'parse',
    title: 'read a one-line address into its parts and check it',
    description:
      'Reads an address written on one line, e.g. "Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito Juárez, 03940 Ciudad de México, CDMX", ' +
      'into its parts, as `cpmx parse` reads each line: {"cp", "estado", "municipio", "asentamiento", "tipo_asentamiento", "ciudad", "calle", "numero_exterior", "numero_interior", ' +
      '"valid", "errors", "suggestions", "read", "inferred"} (names in the catalog\'s spelling; "read": the parts found in the text, "inferred": those filled from the catalog, ' +
      'such as the code found from the settlement, municipality and state; "codes": up to 10 when several codes fit a line without one). Errors are those of validate, ' +
      'and 130 with its "reason" for a text that holds no address.',
    properties: { address: { type: 'string', description: 'The address (dirección) on one line, parts in any order, separated by commas or not.' } },
    required: ['address'],
    answer: (values) =>
      values.address === undefined ? refused('parse', 'needs "address", the address on one line') : answerOf(parseAddress(client, values.address)),
  });
}

export interface ToolOptions {
  /** The artifact to answer from. */
  dataPath: string;
  /** Every call's token; `pruebas` is test mode. */
  token: string;
}

/**
 * The tools over one catalog. The lookups go through the router with the token, as the
 * command line's do; validation and reading through a client of the same catalog (loaded
 * once per path for the whole process). With a real token the catalog is loaded now, so a
 * missing or broken one fails before anything is served (ArtifactError).
 */
export function mcpTools({ dataPath, token }: ToolOptions): Tool[] {
  const client = createClient({ token, dataPath });
  const answer = answerer(dataPath, token, true);
  return [...lookupRows().map((row) => lookupTool(row, answer)), validateTool(client), parseTool(client)];
}
