import { InternalError } from "@uwf/protocol";
import { type CommandEntry, type CommandTable, isCommandGroup } from "./table/define-command.ts";

/**
 * The command at `path` (`["thread", "fork"]`) in the command table, for the callers that run commands
 * without a command line (the web UI's backend, the MCP server's tools). It lives outside `commands/mcp/`
 * so the UI can use it without loading the MCP server.
 */
export function findCommand(table: CommandTable, path: readonly string[]): CommandEntry {
  let entries = table;
  for (const [index, word] of path.entries()) {
    const found = entries.find((entry) => entry.name === word);
    if (found === undefined) break;
    if (!isCommandGroup(found)) {
      if (index === path.length - 1) return found;
      break;
    }
    entries = found.commands;
  }
  throw new InternalError(`no command ${path.join(" ")} in the command table`);
}

/** An option the caller left out is absent, as a flag not given on the command line. */
export function withoutUndefined(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
