import { readdirSync, readFileSync, readlinkSync } from "node:fs";
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

/**
 * The processes (not zombies) whose working directory is `directory`, read from /proc (Linux): the
 * MCP servers a step started in the thread's cwd, found without knowing their pids.
 */
export function processesWithCwd(directory: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/cwd`) !== directory) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z" && state !== "X") found.push(Number(name));
    } catch {
      // Gone while being read, or another user's.
    }
  }
  return found;
}
