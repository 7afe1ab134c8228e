import { stat } from "node:fs/promises";
import { messageOf } from "@uwf/protocol";
import {
  type AgentTool,
  ok,
  optionalStringInput,
  stringInput,
  TOOL_TIME_LIMIT_REASON,
  ToolInputError,
  type ToolResult,
} from "./agent-tool.ts";
import { startLineSearcher } from "./line-searcher.ts";
import { openFileToRead } from "./open-tool-file.ts";
import { realHome, resolveToolPath } from "./resolve-tool-path.ts";
import { walkWorkspace } from "./walk-workspace.ts";

export const SEARCH_MATCH_LIMIT = 200;
/** How long one search may run: the regular expression runs in a worker that is ended then. */
export const SEARCH_TIME_LIMIT_MS = 30_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_LENGTH = 300;

export const searchFilesTool: AgentTool = {
  name: "search_files",
  description: `Search text files in the working directory for a regular expression (JavaScript syntax). Prints path:line: text for each matching line. Optionally limit to a directory and a glob such as **/*.ts. Stopped after ${SEARCH_TIME_LIMIT_MS / 1000} s.`,
  inputSchema: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "Regular expression to look for" },
      path: { type: "string", description: "Directory or file to search (default: .)" },
      glob: {
        type: "string",
        description: "Only files whose path relative to the working directory matches this glob",
      },
    },
    required: ["pattern"],
  },
  timeLimitMs: () => SEARCH_TIME_LIMIT_MS,
  async run(input, context) {
    const startedAt = Date.now();
    const pattern = stringInput(input, "pattern");
    const path = optionalStringInput(input, "path") ?? ".";
    const glob = optionalStringInput(input, "glob");
    try {
      new RegExp(pattern);
    } catch (error) {
      throw new ToolInputError(`invalid regular expression: ${messageOf(error)}`);
    }
    const matcher = glob === undefined ? null : new Bun.Glob(glob);
    const real = await resolveToolPath(context, path);
    const home = await realHome(context.env.home);
    const stats = await stat(real).catch(() => null);
    if (stats === null) throw new ToolInputError(`${path} does not exist`);

    const files: Array<{ path: string; relativePath: string }> = [];
    const explicit = !stats.isDirectory();
    if (explicit) files.push({ path: real, relativePath: path });
    else {
      for await (const entry of walkWorkspace(context.workspace, real, true, [home])) {
        if (entry.kind === "file" && (matcher === null || matcher.match(entry.relativePath))) files.push(entry);
      }
    }
    const matches: string[] = [];
    const searcher = startLineSearcher({ pattern, maxLineLength: MAX_LINE_LENGTH, signal: context.signal });
    try {
      for (const file of files) {
        // A file named outside a walk that cannot be read says why; one met in the walk is skipped.
        const text = await readSearchableText(file.path, file.relativePath, home, explicit);
        if (text === null) continue;
        const found = await searcher.search(text, SEARCH_MATCH_LIMIT - matches.length);
        if (found === null) return stoppedResult(matches, Date.now() - startedAt, context.signal);
        for (const match of found) matches.push(`${file.relativePath}:${match.line}: ${match.text}`);
        if (matches.length >= SEARCH_MATCH_LIMIT) {
          matches.push(`[cut at ${SEARCH_MATCH_LIMIT} matches; narrow the pattern, path or glob]`);
          return ok(matches.join("\n"));
        }
      }
    } finally {
      searcher.close();
    }
    if (context.signal.aborted) return stoppedResult(matches, Date.now() - startedAt, context.signal);
    return ok(matches.length === 0 ? "no matches" : matches.join("\n"));
  },
};

/** The file's text, or null for a file not searched: too big, binary, or refused (only thrown when `explicit`). */
async function readSearchableText(real: string, path: string, home: string, explicit: boolean): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof openFileToRead>>;
  try {
    handle = await openFileToRead(real, path, home);
  } catch (error) {
    if (explicit) throw error;
    return null;
  }
  try {
    if ((await handle.stat()).size > MAX_FILE_BYTES) return null;
    const bytes = await handle.readFile();
    return bytes.subarray(0, 8192).includes(0) ? null : bytes.toString("utf8");
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

function stoppedResult(matches: string[], elapsedMs: number, signal: AbortSignal): ToolResult {
  const reason =
    signal.reason === TOOL_TIME_LIMIT_REASON
      ? `it ran ${Math.round(elapsedMs / 1000)} s; a pattern with nested repetition such as (a+)+ can take exponential time: simplify it, or narrow the path or glob`
      : "the step was stopped";
  const found = matches.length === 0 ? "" : `\nmatches before it stopped:\n${matches.join("\n")}`;
  return { content: `search_files stopped: ${reason}${found}`, isError: true };
}
