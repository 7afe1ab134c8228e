import type { McpServers } from "@uwf/protocol";
import type { ConfigReferenceProblem } from "../config/config-reference-problem.ts";
import { hasMalformedReference } from "./expand-variables.ts";
import { MAX_SERVER_NAME_LENGTH, mcpToolName, SERVER_NAME_TOO_LONG, toolNameProblem } from "./mcp-tool-name.ts";

/**
 * What the schema cannot see in an agent's `mcpServers` (`key` is the agent's key, `agents.NAME`): a
 * server name too long for any `SERVER__TOOL` to fit, a tool in `allow` or `deny` whose name no API accepts, and a header or `env` value
 * with a `${` that is not a `${NAME}` reference. Checked without starting anything: loads no SDK.
 */
export function findMcpServerProblems(key: string, servers: McpServers | undefined): ConfigReferenceProblem[] {
  const problems: ConfigReferenceProblem[] = [];
  for (const [server, spec] of Object.entries(servers ?? {})) {
    const at = `${key}.mcpServers.${server}`;
    if (server.length > MAX_SERVER_NAME_LENGTH) {
      problems.push({ key: at, message: SERVER_NAME_TOO_LONG });
      continue;
    }
    for (const list of ["allow", "deny"] as const) {
      for (const tool of spec[list] ?? []) {
        const problem = toolNameProblem(mcpToolName(server, tool));
        if (problem !== null) problems.push({ key: `${at}.${list}`, message: `the tool ${problem}` });
      }
    }
    const [field, entries] = "command" in spec ? ["env", spec.env ?? {}] : ["headers", spec.headers ?? {}];
    for (const [name, value] of Object.entries(entries)) {
      if (!hasMalformedReference(value)) continue;
      problems.push({
        key: `${at}.${field}.${name}`,
        message: `"${value}" has a \${ that does not name a variable; write \${NAME} (letters, digits and _)`,
      });
    }
  }
  return problems;
}
