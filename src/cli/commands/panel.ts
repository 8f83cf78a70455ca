/** `cpmx panel create-admin` and `cpmx panel reset-password`: the control panel's accounts, as the operator manages them. */
import { EXIT, HELP_OPTION, UsageError, command, noPositionals } from '../command.js';
import { registryOption } from '../environment.js';

const ACTIONS = ['create-admin', 'reset-password'] as const;

export const panelCommand = command({
  name: 'panel',
  synopsis: 'create-admin|reset-password',
  usageOptions: '--registry FILE|URL --email E [--name NAME]',
  summary: "the control panel's administrator and password resets",
  description: `  cpmx panel create-admin --registry FILE|URL --email E [--name NAME]
  cpmx panel reset-password --registry FILE|URL --email E

create-admin makes an administrator of the control panel (cpmx serve --panel): an account
that logs in at /panel/ and can list accounts, grant credits and disable an account. If E
already has an account, it becomes an administrator and its password is replaced.
reset-password gives the account of E a new password and nothing else (a forgotten
password; it does not make an administrator).
Either way, every session the account had ends: whoever was logged in with the old
password must log in again. The password is asked for on the terminal, without echo, twice;
when standard input is not a terminal, its first line is the password (never give it as an
argument: other users of the machine see those). A SQLite registry that does not exist yet
is created (create-admin only).`,
  exit: 'Exit status: 0 when done, 1 when reset-password finds no account for E, 2 on a usage error, an unusable registry or an unacceptable password.',
  options: {
    registry: { type: 'string', value: 'FILE|URL', help: 'the registry (default: CPMX_REGISTRY)' },
    email: { type: 'string', value: 'E', help: "the account's email, used to log in" },
    name: { type: 'string', value: 'NAME', help: 'create-admin: the name shown in the panel (default: Administración)' },
    ...HELP_OPTION,
  },
  async run({ values, positionals, help }) {
    const [action, ...rest] = positionals;
    if (action === undefined || action === 'help') return help();
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown panel action "${action}": use ${ACTIONS.join(' or ')}`);
    const reset = action === 'reset-password';
    noPositionals(rest, `panel ${action}`, 'The password is read from the terminal or standard input, never from the arguments.');
    const location = registryOption(values.registry);
    if (!location) throw new UsageError(`cpmx panel ${action} needs --registry FILE|URL (or CPMX_REGISTRY)`);
    if (reset && values.name !== undefined) throw new UsageError('--name is an option of create-admin: reset-password changes only the password');
    const { checkEmail, checkName, checkPassword, NAME_MAX } = await import('../../panel/forms.js');
    const { hashPassword, PASSWORD_MAX, PASSWORD_MIN } = await import('../../panel/password.js');
    const email = checkEmail(values.email ?? null);
    if (!email.ok) throw new UsageError(`--email: ${values.email === undefined ? `cpmx panel ${action} needs --email E` : `"${values.email}" is not an email address`}`);
    const name = checkName(values.name ?? 'Administración', 'account');
    if (!name.ok) throw new UsageError(`--name must be 1 to ${NAME_MAX} characters, none of them control characters`);
    const { readPassword } = await import('../password-prompt.js');
    const password = await readPassword(`Password for ${email.value}: `);
    const checked = checkPassword(password);
    if (!checked.ok) throw new UsageError(`the password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters; nothing was changed`);
    const { openAdmin } = await import('../../registry/open.js');
    const { refusedAsUsage } = await import('../registry-usage.js');
    let registry: Awaited<ReturnType<typeof openAdmin>> | undefined;
    return refusedAsUsage(async () => {
      try {
        registry = await openAdmin(location, { create: !reset });
        const passwordHash = await hashPassword(checked.value);
        if (reset) {
          const changed = await registry.setPassword(email.value, passwordHash, false);
          if (!changed) {
            process.stderr.write(`cpmx panel: ${email.value} has no account in ${registry.location}; nothing was changed\n`);
            return EXIT.failed;
          }
          process.stderr.write(`cpmx panel: ${email.value} (account ${changed.id}) has the password just given; its sessions were ended\n`);
          return EXIT.ok;
        }
        const made = await registry.createAccount({ email: email.value, name: name.value, passwordHash, credits: 0, admin: true });
        if (made) {
          process.stderr.write(`cpmx panel: ${email.value} is an administrator (account ${made.id}) of ${registry.location}; log in at /panel/entrar\n`);
        } else {
          const promoted = (await registry.setPassword(email.value, passwordHash, true))!;
          process.stderr.write(`cpmx panel: ${email.value} already had an account (${promoted.id}): it is now an administrator, with the password just given; its sessions were ended\n`);
        }
        return EXIT.ok;
      } finally {
        await registry?.close();
      }
    });
  },
});
