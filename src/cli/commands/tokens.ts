/** `cpmx tokens`: projects, their tokens and credits, in a registry. */
import { EXIT, HELP_OPTION, UsageError, command, integer, print } from '../command.js';
import { registryOption } from '../environment.js';

const ACTIONS = ['create', 'list', 'credit', 'revoke'] as const;

export const tokensCommand = command({
  name: 'tokens',
  synopsis: 'create|list|credit|revoke',
  summary: 'manage project tokens and credits of a registry',
  description: `  cpmx tokens create --registry FILE --name NAME [--credits 50]   prints the new token alone
  cpmx tokens list --registry FILE [--json]
  cpmx tokens credit TOKEN N --registry FILE                      adds N credits
  cpmx tokens revoke TOKEN --registry FILE

Projects, their tokens (random UUID v4) and their credits, in a SQLite registry that
\`cpmx serve --registry FILE\` answers by. New projects get 50 credits. --registry defaults to
the CPMX_REGISTRY environment variable. The registry needs better-sqlite3
(npm install better-sqlite3). The JSON of list is an array of
{ "token", "name", "credits", "used", "revoked", "created" }, credits being what is left.`,
  exit: 'Exit status: 0 on success, 1 when the token is not in the registry, 2 on a usage error.',
  options: {
    registry: { type: 'string', value: 'FILE', help: 'the registry (default: CPMX_REGISTRY)' },
    name: { type: 'string', value: 'NAME', help: 'create: the project name' },
    credits: { type: 'string', value: 'N', help: 'create: its credits (default 50)' },
    json: { type: 'boolean', help: 'list: as a JSON array' },
    ...HELP_OPTION,
  },
  async run({ values, positionals, help }) {
    const [action, ...rest] = positionals;
    if (action === undefined || action === 'help') return help();
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) {
      throw new UsageError(`unknown tokens action "${action}": use create, list, credit or revoke`);
    }
    const path = registryOption(values.registry);
    if (!path) throw new UsageError(`cpmx tokens ${action} needs --registry FILE (or CPMX_REGISTRY)`);
    const { SqliteRegistry, RegistryError, DEFAULT_CREDITS } = await import('../../registry/sqlite.js');
    let registry: InstanceType<typeof SqliteRegistry>;
    try {
      registry = new SqliteRegistry(path);
    } catch (error) {
      if (error instanceof RegistryError) throw new UsageError(error.message);
      throw error;
    }
    try {
      switch (action) {
        case 'create': {
          if (!values.name?.trim()) throw new UsageError('cpmx tokens create needs --name NAME');
          if (rest.length) throw new UsageError(`cpmx tokens create takes no positional argument, got: ${rest.join(' ')}`);
          const credits = values.credits === undefined ? DEFAULT_CREDITS : integer(values.credits, '--credits', 0);
          process.stdout.write(`${registry.create(values.name.trim(), credits).token}\n`);
          return EXIT.ok;
        }
        case 'list': {
          const projects = registry.list();
          if (values.json) print(projects, false);
          else if (projects.length === 0) process.stdout.write('no projects\n');
          else {
            for (const p of projects) {
              process.stdout.write(`${p.token}  ${p.revoked ? 'revoked' : `${p.credits} left`}, ${p.used} used  ${p.name}  (${p.created})\n`);
            }
          }
          return EXIT.ok;
        }
        default: {
          const expected = action === 'credit' ? 2 : 1;
          if (rest.length !== expected) {
            throw new UsageError(action === 'credit' ? 'usage: cpmx tokens credit TOKEN N --registry FILE' : 'usage: cpmx tokens revoke TOKEN --registry FILE');
          }
          const token = rest[0]!;
          const done = action === 'credit' ? registry.credit(token, integer(rest[1]!, 'N', 1)) : registry.revoke(token);
          if (!done) {
            process.stderr.write(`cpmx tokens: ${path} holds no token ${token}\n`);
            return EXIT.failed;
          }
          const project = registry.get(token)!;
          process.stderr.write(`${project.name}: ${project.revoked ? 'revoked' : `${project.credits} credits left`}\n`);
          return EXIT.ok;
        }
      }
    } finally {
      registry.close();
    }
  },
});
