/** The command table: every command of `cpmx`, in the order the overview lists them. */
import type { Command } from '../command.js';
import { buildCommand } from './build.js';
import { diffCommand } from './diff.js';
import { downloadCommand } from './download.js';
import { exportCommand } from './export.js';
import { geojsonCommand } from './geojson.js';
import { lookupCommands } from './lookups.js';
import { mcpCommand } from './mcp.js';
import { openapiCommand } from './openapi.js';
import { panelCommand } from './panel.js';
import { parseCommand } from './parse.js';
import { queryCommand } from './query.js';
import { serveCommand } from './serve.js';
import { statusCommand } from './status.js';
import { tokensCommand } from './tokens.js';
import { validateCommand } from './validate.js';

export const COMMANDS: readonly Command[] = [
  ...lookupCommands,
  queryCommand,
  buildCommand,
  downloadCommand,
  statusCommand,
  diffCommand,
  exportCommand,
  geojsonCommand,
  serveCommand,
  openapiCommand,
  tokensCommand,
  panelCommand,
  validateCommand,
  parseCommand,
  mcpCommand,
] as Command[];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
