import type { CommandContext } from "../../pipeline/command-context.ts";
import type { McpCommandOptions } from "../mcp/mcp.ts";
import type { UiCommandOptions } from "../ui/ui.ts";
import { type CommandEntry, type CommandTable, defineCommand } from "./define-command.ts";
import { parseNonNegativeInteger } from "./option-value-parsers.ts";

/** `uwf ui`: TABLE gives the table whose commands its API runs. */
export function uiCommandEntry(table: () => CommandTable): CommandEntry {
  return defineCommand({
    name: "ui",
    description:
      "serve a local web page over the store: threads live, graphs, fork trees, diffs, eval reports, actions",
    options: {
      port: {
        flags: "--port <n>",
        description: "listen on this port (default 7323, or a free one when that is taken; 0: a free one)",
        parse: parseNonNegativeInteger,
      },
      host: {
        flags: "--host <addr>",
        description: "listen on this address (default 127.0.0.1; another than loopback needs --token or --read-only)",
      },
      open: { flags: "--open", description: "open the page in the default browser" },
      readOnly: { flags: "--read-only", description: "serve no actions: nothing can be stepped, forked or cancelled" },
      token: {
        flags: "--token <token>",
        description:
          "the session token, 16+ characters (default: a new random one per start); off loopback every request needs it",
      },
    },
    examples: ["uwf ui", "uwf ui --port 0 --open", "uwf ui --host 0.0.0.0 --read-only"],
    json: "uiStartedEventSchema (--jsonl only: the line printed once it listens; --json is refused)",
    // The command table is handed over rather than imported: each API call runs one of its commands.
    load: async () => {
      const { uiCommand } = await import("../ui/ui.ts");
      return (options: UiCommandOptions, context: CommandContext) => uiCommand(options, context, table());
    },
  });
}

/** `uwf mcp`: TABLE gives the table whose commands its tools run. */
export function mcpCommandEntry(table: () => CommandTable): CommandEntry {
  return defineCommand({
    name: "mcp",
    description:
      "serve uwf as an MCP server on stdio: start, step, run, show, log, read, list, fork, diff, resume and cancel as tools, threads as resources",
    options: {
      readOnly: {
        flags: "--read-only",
        description: "offer only the tools that read the store: show, log, read, list and diff",
      },
    },
    examples: ["claude mcp add uwf -- uwf mcp", "uwf --store postgres://uwf@db.internal/uwf mcp --read-only"],
    // The command table is handed over rather than imported: each tool call runs one of its commands.
    load: async () => {
      const { mcpCommand } = await import("../mcp/mcp.ts");
      return (options: McpCommandOptions, context: CommandContext) => mcpCommand(options, context, table());
    },
  });
}
