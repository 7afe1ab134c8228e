import { join } from "node:path";
import type { StdioMcpServerSpec } from "@uwf/protocol";

/** Where this package's dev dependencies are installed: the real MCP servers the tests start. */
const MODULES = join(import.meta.dir, "../../node_modules/@modelcontextprotocol");

/**
 * `@modelcontextprotocol/server-everything` on stdio, run by this Bun from node_modules (no network):
 * tools `echo`, `get-sum`, `get-env`, `get-tiny-image`, `trigger-long-running-operation`... `extra` is
 * laid over the spec.
 */
export function everythingServerSpec(extra: Partial<StdioMcpServerSpec> = {}): StdioMcpServerSpec {
  return { command: process.execPath, args: [join(MODULES, "server-everything/dist/index.js"), "stdio"], ...extra };
}

/**
 * `@modelcontextprotocol/server-filesystem` on stdio, confined to `directories` (relative to the
 * thread's cwd, which is its cwd): tools `read_text_file`, `write_file`, `list_directory`...
 */
export function filesystemServerSpec(
  directories: readonly string[] = ["."],
  extra: Partial<StdioMcpServerSpec> = {},
): StdioMcpServerSpec {
  return {
    command: process.execPath,
    args: [join(MODULES, "server-filesystem/dist/index.js"), ...directories],
    ...extra,
  };
}

/** Whether a process with this pid exists (a zombie counts): `process.kill(pid, 0)` throws when not. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
