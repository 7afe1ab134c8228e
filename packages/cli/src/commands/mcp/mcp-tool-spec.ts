import type { Store } from "@uwf/cas";
import type { z } from "zod";
import type { CommandContext } from "../../pipeline/command-context.ts";

/**
 * One MCP tool: which command of the command table it answers as (the one `uwf … --json` runs), its input
 * schema (the command's flags, camelCased as commander names them), how an input becomes that
 * command's options, and the schema of its result where it has a single shape. A tool that reads a
 * thread's view (`show`, `log`, `list`, `tree`) reads it from the engine (`read`); the others run the command.
 */
export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  /** The command table path: `["step"]`. */
  command: readonly string[];
  input: z.ZodRawShape;
  /** The input as the command's options, as commander would have parsed the flags. */
  toOptions(input: Record<string, unknown>): Record<string, unknown>;
  /** Reads the result from the engine instead of running the command: the options are the command's, checked as it checks them. */
  read?(store: Store, options: Record<string, unknown>, context: CommandContext): Promise<unknown>;
  /** The command's `--json` schema; absent where its result has more than one shape (`show`, `fork`). */
  output?: z.ZodObject;
  /** Reads the store only: offered under `uwf mcp --read-only`. */
  readOnly: boolean;
  /** Runs agents: long, so it reports each step as a progress notification. */
  runsAgents: boolean;
  /** Reports each step as a progress notification though it runs no agent (`follow`, which waits for them). */
  reportsSteps?: boolean;
}
