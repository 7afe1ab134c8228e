import { readFile, stat } from "node:fs/promises";
import { type AgentTool, ok, optionalStringInput, stringInput, ToolInputError } from "./agent-tool.ts";
import { resolveWorkspacePath } from "./resolve-workspace-path.ts";
import { walkWorkspace } from "./walk-workspace.ts";

export const SEARCH_MATCH_LIMIT = 200;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_LENGTH = 300;

export const searchFilesTool: AgentTool = {
  name: "search_files",
  description:
    "Search text files in the working directory for a regular expression (JavaScript syntax). Prints path:line: text for each matching line. Optionally limit to a directory and a glob such as **/*.ts.",
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
  async run(input, context) {
    const pattern = stringInput(input, "pattern");
    const path = optionalStringInput(input, "path") ?? ".";
    const glob = optionalStringInput(input, "glob");
    let expression: RegExp;
    try {
      expression = new RegExp(pattern);
    } catch (error) {
      throw new ToolInputError(`invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
    const matcher = glob === undefined ? null : new Bun.Glob(glob);
    const real = await resolveWorkspacePath(context.workspace, path);
    const stats = await stat(real).catch(() => null);
    if (stats === null) throw new ToolInputError(`${path} does not exist`);

    const files: Array<{ path: string; relativePath: string }> = [];
    if (stats.isFile()) files.push({ path: real, relativePath: path });
    else {
      for await (const entry of walkWorkspace(context.workspace, real, true)) {
        if (entry.kind === "file" && (matcher === null || matcher.match(entry.relativePath))) files.push(entry);
      }
    }
    const matches: string[] = [];
    for (const file of files) {
      if (context.signal.aborted) break;
      const bytes = await readFile(file.path).catch(() => null);
      if (bytes === null || bytes.length > MAX_FILE_BYTES || bytes.subarray(0, 8192).includes(0)) continue;
      const lines = bytes.toString("utf8").split("\n");
      for (const [index, line] of lines.entries()) {
        if (!expression.test(line)) continue;
        const shown = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}…` : line;
        matches.push(`${file.relativePath}:${index + 1}: ${shown}`);
        if (matches.length >= SEARCH_MATCH_LIMIT) {
          matches.push(`[cut at ${SEARCH_MATCH_LIMIT} matches; narrow the pattern, path or glob]`);
          return ok(matches.join("\n"));
        }
      }
    }
    return ok(matches.length === 0 ? "no matches" : matches.join("\n"));
  },
};
