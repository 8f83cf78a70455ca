/** `cpmx tokens`: projects, their tokens and credits, in a registry (SQLite or PostgreSQL). */
import { EXIT, HELP_OPTION, UsageError, command, integer, print } from '../command.js';
import { registryOption } from '../environment.js';

const ACTIONS = ['create', 'list', 'credit', 'revoke', 'usage'] as const;

const USAGE = {
  credit: 'usage: cpmx tokens credit TOKEN N --registry FILE|URL',
  revoke: 'usage: cpmx tokens revoke TOKEN --registry FILE|URL',
  usage: 'usage: cpmx tokens usage TOKEN [--days 30] [--json] --registry FILE|URL',
} as const;

export const tokensCommand = command({
  name: 'tokens',
  synopsis: 'create|list|credit|revoke|usage',
  summary: 'manage project tokens and credits of a registry',
  // `credit TOKEN -5`: the count is refused for what it is, not taken for an unknown option.
  negativeNumbers: true,
  description: `  cpmx tokens create --registry FILE|URL --name NAME [--credits 50]   prints the new token alone
  cpmx tokens list --registry FILE|URL [--json]
  cpmx tokens credit TOKEN N --registry FILE|URL                      adds N credits
  cpmx tokens revoke TOKEN --registry FILE|URL
  cpmx tokens usage TOKEN --registry FILE|URL [--days 30] [--json]    requests and credits per day

Projects, their tokens (random UUID v4) and their credits, in the registry that
\`cpmx serve --registry\` answers by: a SQLite file (a path, or sqlite:PATH; needs
better-sqlite3) or a PostgreSQL database (postgres://USER[:PASSWORD]@HOST[:PORT]/DB; needs
pg). The schema is created, or migrated, on first use. create makes a project in an account
of its own with 50 credits (or --credits); credits belong to the account. --registry
defaults to the CPMX_REGISTRY environment variable. Days are UTC days.
The JSON of list is an array of { "token", "name", "project", "account", "credits",
"used", "revoked", "created" }, credits being what is left; that of usage is { "token",
"name", "project", "account", "credits", "days": [{ "day", "requests", "credits" }],
"errors": [{ "at", "code", "count", "token" }] }, days oldest first, errors newest first.`,
  exit: 'Exit status: 0 on success, 1 when the token is not in the registry, 2 on a usage error or an unusable registry.',
  options: {
    registry: { type: 'string', value: 'FILE|URL', help: 'the registry (default: CPMX_REGISTRY)' },
    name: { type: 'string', value: 'NAME', help: 'create: the project name' },
    credits: { type: 'string', value: 'N', help: 'create: its credits (default 50)' },
    days: { type: 'string', value: 'N', help: 'usage: the last N days, today included (default 30)' },
    json: { type: 'boolean', help: 'list, usage: as JSON' },
    ...HELP_OPTION,
  },
  async run({ values, positionals, help }) {
    const [action, ...rest] = positionals;
    if (action === undefined || action === 'help') return help();
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) {
      throw new UsageError(`unknown tokens action "${action}": use create, list, credit, revoke or usage`);
    }
    const location = registryOption(values.registry);
    if (!location) throw new UsageError(`cpmx tokens ${action} needs --registry FILE|URL (or CPMX_REGISTRY)`);
    if (action === 'create') {
      if (!values.name?.trim()) throw new UsageError('cpmx tokens create needs --name NAME');
      if (rest.length) throw new UsageError(`cpmx tokens create takes no positional argument, got: ${rest.join(' ')}`);
    } else if (action !== 'list' && rest.length !== (action === 'credit' ? 2 : 1)) {
      throw new UsageError(USAGE[action as keyof typeof USAGE]);
    }
    const credits = values.credits === undefined ? undefined : integer(values.credits, '--credits', 0);
    const days = integer(values.days ?? '30', '--days', 1, 3660);
    // Checked before the registry is opened, as the options are.
    const added = action === 'credit' ? integer(rest[1]!, 'N', 1) : undefined;
    const { openAdmin } = await import('../../registry/open.js');
    const { refusedAsUsage } = await import('../registry-usage.js');
    let registry: Awaited<ReturnType<typeof openAdmin>> | undefined;
    return refusedAsUsage(async () => {
      try {
        registry = await openAdmin(location, { create: action === 'create' });
        const token = rest[0]!;
        switch (action) {
          case 'create': {
            process.stdout.write(`${(await registry.createProject({ name: values.name!.trim(), credits })).token}\n`);
            return EXIT.ok;
          }
          case 'list': {
            const projects = await registry.list();
            if (values.json) print(projects, false);
            else if (projects.length === 0) process.stdout.write('no projects\n');
            else {
              for (const p of projects) {
                process.stdout.write(`${p.token}  ${p.revoked ? 'revoked' : `${p.credits} left`}, ${p.used} used  ${p.name}  (${p.created})\n`);
              }
            }
            return EXIT.ok;
          }
          case 'usage': {
            const usage = await registry.usage(token, days);
            if (!usage) return missing(registry.location, token);
            if (values.json) print(usage, false);
            else {
              process.stdout.write(`${usage.name}: ${usage.credits} credits left\nday          requests  credits\n`);
              for (const day of usage.days) process.stdout.write(`${day.day}  ${String(day.requests).padStart(8)}  ${String(day.credits).padStart(7)}\n`);
              const total = usage.days.reduce((sum, day) => ({ requests: sum.requests + day.requests, credits: sum.credits + day.credits }), { requests: 0, credits: 0 });
              process.stdout.write(`total       ${String(total.requests).padStart(8)}  ${String(total.credits).padStart(7)}\n`);
              for (const error of usage.errors.slice(0, 10)) process.stdout.write(`${error.at}  ${error.code} ×${error.count}\n`);
            }
            return EXIT.ok;
          }
          default: {
            const done = added !== undefined ? await registry.credit(token, added) : await registry.revoke(token);
            if (!done) return missing(registry.location, token);
            const project = (await registry.get(token))!;
            process.stderr.write(`${project.name}: ${project.revoked ? 'revoked' : `${project.credits} credits left`}\n`);
            return EXIT.ok;
          }
        }
      } finally {
        await registry?.close();
      }
    });
  },
});

function missing(location: string, token: string): number {
  process.stderr.write(`cpmx tokens: ${location} holds no ${token === '' ? 'empty token' : `live token ${token}`}\n`);
  return EXIT.failed;
}
