/**
 * The lookups `cpmx mcp` offers as tools, read from the contract's method table: the one
 * place that knows where a method's path segment, parameters and texts come from, so the
 * tools follow the table as the command line and its help do.
 */
import { lookupCommands } from '../cli/commands/lookups.js';
import { METHODS, type Method, type Parameter, type SegmentKind } from '../core/request.js';

export interface LookupRow {
  method: Method;
  /** The method's path segment, named by what it holds; none when it takes none. */
  segment: SegmentKind | undefined;
  /** Its query parameters, in the order the contract checks them. */
  parameters: readonly Parameter[];
  /** Those it requires. */
  required: readonly Parameter[];
  /** One line, and what it answers, as the command line's help says them. */
  summary: string;
  description: string;
}

/**
 * Methods left out of the tools: an older name of a method that is offered (an agent needs
 * one name for one thing), and the account method (no registry here: it always answers null).
 */
const NOT_TOOLS: ReadonlySet<Method> = new Set<Method>(['get_cp_advanced', 'cuenta/consultas_disponibles']);

/** Every lookup offered as a tool, in the table's order. */
export function lookupRows(): LookupRow[] {
  const texts = new Map(lookupCommands.map((command) => [command.name, command]));
  return (Object.keys(METHODS) as Method[])
    .filter((method) => !NOT_TOOLS.has(method))
    .map((method) => {
      const spec: { segment?: SegmentKind; parameters: readonly Parameter[]; required?: readonly Parameter[] } = METHODS[method];
      const text = texts.get(method)!;
      return { method, segment: spec.segment, parameters: spec.parameters, required: spec.required ?? [], summary: text.summary, description: text.description };
    });
}
