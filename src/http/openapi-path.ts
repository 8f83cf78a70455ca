/** Where the OpenAPI document (openapi.ts) is served, beside the API: apart, so that answering every other path loads none of it. */
export const OPENAPI_PATH = '/openapi.json';
