/** `cpmx panel create-admin`: the control panel's administrator, made by the operator. */
import { EXIT, HELP_OPTION, UsageError, command, noPositionals } from '../command.js';
import { registryOption } from '../environment.js';

export const panelCommand = command({
  name: 'panel',
  synopsis: 'create-admin',
  usageOptions: '--registry FILE|URL --email E [--name NAME]',
  summary: "the control panel's administrator",
  description: `  cpmx panel create-admin --registry FILE|URL --email E [--name NAME]

Makes an administrator of the control panel (cpmx serve --panel): an account that logs in at
/panel/ and can list accounts, grant credits and disable an account. The password is asked
for on the terminal, without echo, twice; when standard input is not a terminal, its first
line is the password (never give it as an argument: other users of the machine see those).
If E already has an account, it becomes an administrator and its password is replaced.
A SQLite registry that does not exist yet is created.`,
  exit: 'Exit status: 0 when the administrator is made, 2 on a usage error, an unusable registry or an unacceptable password.',
  options: {
    registry: { type: 'string', value: 'FILE|URL', help: 'the registry (default: CPMX_REGISTRY)' },
    email: { type: 'string', value: 'E', help: "the administrator's email, used to log in" },
    name: { type: 'string', value: 'NAME', help: 'the name shown in the panel (default: Administración)' },
    ...HELP_OPTION,
  },
  async run({ values, positionals, help }) {
    const [action, ...rest] = positionals;
    if (action === undefined || action === 'help') return help();
    if (action !== 'create-admin') throw new UsageError(`unknown panel action "${action}": use create-admin`);
    noPositionals(rest, 'panel create-admin', 'The password is read from the terminal or standard input, never from the arguments.');
    const location = registryOption(values.registry);
    if (!location) throw new UsageError('cpmx panel create-admin needs --registry FILE|URL (or CPMX_REGISTRY)');
    const { checkEmail, checkName, checkPassword, NAME_MAX } = await import('../../panel/forms.js');
    const { hashPassword, PASSWORD_MAX, PASSWORD_MIN } = await import('../../panel/password.js');
    const email = checkEmail(values.email ?? null);
    if (!email.ok) throw new UsageError(`--email: ${values.email === undefined ? 'cpmx panel create-admin needs --email E' : `"${values.email}" is not an email address`}`);
    const name = checkName(values.name ?? 'Administración', 'account');
    if (!name.ok) throw new UsageError(`--name must be 1 to ${NAME_MAX} characters, none of them control characters`);
    const { readPassword } = await import('../password-prompt.js');
    const password = await readPassword(`Password for ${email.value}: `);
    const checked = checkPassword(password);
    if (!checked.ok) throw new UsageError(`the password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters; nothing was changed`);
    const { openAdmin } = await import('../../registry/open.js');
    const { RegistryError } = await import('../../registry/errors.js');
    let registry: Awaited<ReturnType<typeof openAdmin>> | undefined;
    try {
      registry = await openAdmin(location, { create: true });
      const passwordHash = await hashPassword(checked.value);
      const made = await registry.createAccount({ email: email.value, name: name.value, passwordHash, credits: 0, admin: true });
      if (made) {
        process.stderr.write(`cpmx panel: ${email.value} is an administrator (account ${made.id}) of ${registry.location}; log in at /panel/entrar\n`);
      } else {
        const promoted = (await registry.promote(email.value, passwordHash))!;
        process.stderr.write(`cpmx panel: ${email.value} already had an account (${promoted.id}): it is now an administrator, with the password just given\n`);
      }
      return EXIT.ok;
    } catch (error) {
      if (error instanceof RegistryError) throw new UsageError(error.message);
      throw error;
    } finally {
      await registry?.close();
    }
  },
});
