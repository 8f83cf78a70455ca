/**
 * The OpenAPI 3.1 description of the HTTP API, made from the method table: one path per row
 * (`/query/<name>/{segment}`), its query parameters, the token (query or Bearer), the success
 * body (the envelope around the row's `response` schema; info_cp's full and simplified bodies)
 * and every error the row can answer, each with its HTTP status, code and message. Pure: what
 * `GET /openapi.json` serves and `cpmx openapi` prints. The library loads it (and the method
 * texts) only when the document is asked for (respond.ts; in the bundles, a file of its own,
 * scripts/bundle.mjs, which holds its own copy of the method table).
 */
import { ERRORS, type ErrorCode } from '../core/contract.js';

/** The errors whose message may go on after a colon with a detail: what to build (113), which states are loaded (143). */
const DETAILED_ERRORS: readonly ErrorCode[] = [113, 143];
import { INFO_CP_SCHEMAS, METHOD_TEXTS, PARAMETER_TEXTS, errorsOf, valueSchema, type JsonSchema } from '../core/method-texts.js';
import { METHODS, UNAVAILABLE_METHODS, type Method, type Parameter, type SegmentKind } from '../core/methods.js';
import { OPENAPI_PATH } from './openapi-path.js';

export { OPENAPI_PATH } from './openapi-path.js';

export interface OpenApiOptions {
  /** cpmx's version, the document's `info.version`. */
  version: string;
  /** The API's base URL (`servers`); none: the document's own origin and mount. */
  server?: string | undefined;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** An API text names a parameter as a query would write it. */
const apiName = (parameter: Parameter, value?: string) => (value === undefined ? `\`${parameter}\`` : `\`${parameter}=${value}\``);

const envelope = (response: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { error: { const: false }, code_error: { const: 0 }, error_message: { type: 'null' }, response },
  required: ['error', 'code_error', 'error_message', 'response'],
  additionalProperties: false,
});

/** The contract's errors, each its own schema: its code and message are constants. */
function errorSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    (Object.keys(ERRORS).map(Number) as ErrorCode[]).map((code) => [
      `Error${code}`,
      {
        type: 'object',
        description: `${ERRORS[code][0]} (HTTP ${ERRORS[code][1]})`,
        properties: {
          error: { const: true },
          code_error: { const: code },
          // Some go on with a detail (`Método no disponible sin conexión: ...`).
          error_message: DETAILED_ERRORS.includes(code) ? { type: 'string', pattern: `^${ERRORS[code][0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(: .+)?$` } : { const: ERRORS[code][0] },
          response: { type: 'null' },
        },
        required: ['error', 'code_error', 'error_message', 'response'],
        additionalProperties: false,
      },
    ]),
  );
}

/** The error responses of a list of codes, grouped by HTTP status. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code][1], [...(byStatus.get(ERRORS[code][1]) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: group.map((code) => `${code}: ${ERRORS[code][0]}`).join('; '),
      content: { 'application/json': { schema: group.length === 1 ? ref(`Error${group[0]}`) : { oneOf: group.map((code) => ref(`Error${code}`)) } } },
    };
  }
  return responses;
}

/** What any request may get from the server itself (outside the contract's table). */
const SERVER_RESPONSES = {
  '414': { $ref: '#/components/responses/ServerError' },
  '500': { $ref: '#/components/responses/ServerError' },
  '503': { $ref: '#/components/responses/ServerError' },
};

function successSchema(method: Method): JsonSchema {
  if (method === 'info_cp') return { oneOf: [ref('InfoCpFull'), ref('InfoCpSimplified')] };
  return envelope(METHOD_TEXTS[method].response);
}

function operation(method: Method): Record<string, unknown> {
  const { segment, parameters, required = [], client, credit } = METHODS[method] as {
    segment?: SegmentKind;
    parameters: readonly Parameter[];
    required?: readonly Parameter[];
    client?: string;
    credit: 'spend' | 'count';
  };
  const texts = METHOD_TEXTS[method];
  const example = texts.example;
  const cost = credit === 'spend' ? 'A success costs one credit of the token (none in test mode).' : 'Costs no credit.';
  return {
    operationId: client ?? method.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
    summary: texts.summary,
    description: `${texts.description(apiName)}\n\n${cost}`,
    tags: [credit === 'count' ? 'account' : 'lookups'],
    parameters: [
      ...(segment ? [{ name: segment, in: 'path', required: true, schema: valueSchema(segment), example: example[segment] }] : []),
      ...parameters.map((parameter) => ({
        name: parameter,
        in: 'query',
        required: required.includes(parameter),
        description: PARAMETER_TEXTS[parameter].help,
        schema: valueSchema(parameter),
        ...(example[parameter] === undefined ? {} : { example: parameter === 'limit' ? Number(example[parameter]) : example[parameter] }),
      })),
      { $ref: '#/components/parameters/token' },
    ],
    responses: {
      '200': { description: texts.summary, content: { 'application/json': { schema: successSchema(method) } } },
      ...errorResponses(errorsOf(method)),
      ...SERVER_RESPONSES,
    },
  };
}

/** The OpenAPI 3.1 document of the HTTP API. */
export function openApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const method of Object.keys(METHODS) as Method[]) {
    const { segment } = METHODS[method] as { segment?: SegmentKind };
    paths[`/query/${method}${segment ? `/{${segment}}` : ''}`] = { get: operation(method) };
  }
  for (const method of UNAVAILABLE_METHODS) {
    paths[`/query/${method}`] = {
      get: {
        operationId: method.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
        summary: 'a COPOMEX method whose data the postal catalog does not hold',
        description: 'Answered 113 whatever follows the name: coordinates, INEGI localities and streets are not in the SEPOMEX catalog.',
        tags: ['unavailable'],
        responses: errorResponses([113]),
      },
    };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      summary: 'this document',
      description: 'The OpenAPI 3.1 description of this API. No token, no credit.',
      tags: ['service'],
      security: [],
      responses: { '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'cpmx: the COPOMEX API answered offline',
      version: options.version,
      summary: 'Mexican postal codes (SEPOMEX catalog) with the COPOMEX API’s envelopes and error codes.',
      description:
        'Every answer is an envelope `{error, code_error, error_message, response}` (info_cp in full mode: an array of them, one per settlement). ' +
        'Errors 101–117 come with the HTTP status of the contract. The token `pruebas` gives test mode: fictitious data in the same shapes, no credits. ' +
        'Successful real-data answers carry a strong ETag; `If-None-Match` gets 304 without spending a credit.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.server ? { servers: [{ url: options.server }] } : {}),
    tags: [
      { name: 'lookups', description: 'The methods of the COPOMEX contract answered from the catalog.' },
      { name: 'account', description: 'The token’s credits.' },
      { name: 'unavailable', description: 'COPOMEX methods the postal catalog cannot answer (113).' },
      { name: 'service', description: 'About the service itself.' },
    ],
    security: [{}, { bearer: [] }],
    paths,
    components: {
      parameters: {
        token: {
          name: 'token',
          in: 'query',
          required: false,
          description:
            'The API token. Without it (or empty), an `Authorization: Bearer` header’s, then the server’s default token (`--default-token`); none at all answers 106. `pruebas` gives test mode.',
          schema: { type: 'string' },
          example: 'pruebas',
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token as `Authorization: Bearer T`, for a request whose query carries none.' },
      },
      responses: {
        ServerError: { description: 'An answer of the server itself (URL too long, catalog not loaded, registry unavailable, internal error): `code_error` is the HTTP status.', content: { 'application/json': { schema: ref('ServerError') } } },
      },
      schemas: {
        PostalCodeRecord: INFO_CP_SCHEMAS.full,
        SimplifiedPostalCodeRecord: INFO_CP_SCHEMAS.simplified,
        InfoCpFull: { type: 'array', description: 'One envelope per settlement, in catalog order.', items: envelope(ref('PostalCodeRecord')), minItems: 1 },
        InfoCpSimplified: envelope(ref('SimplifiedPostalCodeRecord')),
        ...errorSchemas(),
        ServerError: {
          type: 'object',
          properties: { error: { const: true }, code_error: { type: 'integer', minimum: 400, maximum: 599 }, error_message: { type: 'string' }, response: { type: 'null' } },
          required: ['error', 'code_error', 'error_message', 'response'],
          additionalProperties: false,
        },
      },
    },
  };
}
