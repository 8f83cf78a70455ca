// An app's use of cpmx, type-checked by test/embed/types.test.ts with no @types/node, against
// the installed tarball: each line asserts a type, and the @ts-expect-error lines fail the
// check if cpmx's types were ever `any`.
import { ArtifactError, createClient, createFetchHandler, createMiddleware, isSuccess, type CpmxClient, type InfoCpSimplifiedBody, type Middleware } from 'cpmx';
import { validateAddress, validateStream, type ValidationResult } from 'cpmx/validate';

const client: CpmxClient = createClient({ token: 'demo' });
const body: InfoCpSimplifiedBody = client.infoCp('09810', { type: 'simplified' });
export const municipio: string | undefined = isSuccess(body) ? body.response.municipio : undefined;
export const answered: Response | Promise<Response> = createFetchHandler({ prefix: '/cp' })(new Request('http://app.test/cp/query/info_cp/09810?token=demo'));
export const middleware: Middleware = createMiddleware();
export const checked: ValidationResult = validateAddress(client, { cp: '09810' });
export async function valid(): Promise<boolean[]> {
  const results: boolean[] = [];
  for await (const line of validateStream(client, [{ cp: '1000' }])) results.push(line.valid);
  return results;
}
export function reason(error: unknown): string | undefined {
  return error instanceof ArtifactError ? error.reason : undefined;
}
// @ts-expect-error: a token is a string
createClient({ token: 5 });
// @ts-expect-error: validateAddress takes a client first
validateAddress({ cp: '09810' });
