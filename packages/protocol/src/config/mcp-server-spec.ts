import { z } from "zod";

const toolNames = z.array(z.string().min(1)).describe("tool names as the server gives them, without the prefix");

/** What every MCP server entry may say about which of its tools the model gets, and how long a call may take. */
const toolRules = {
  /** Only these tools are offered (default: all the server lists). */
  allow: toolNames.optional(),
  /** These are never offered, and a call of one is refused. Beats `allow`. */
  deny: toolNames.optional(),
  /** Seconds one call of this server's tools may take; default the built-in tools' limit. */
  timeout: z.number().positive().optional(),
};

/** An MCP server uwf starts for the step as a subprocess speaking MCP on stdio. */
export const stdioMcpServerSpecSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
    /** Relative to the thread's cwd; default the thread's cwd. */
    cwd: z.string().optional(),
    ...toolRules,
  })
  .strict();

/** An MCP server already running, reached over streamable HTTP. */
export const httpMcpServerSpecSchema = z
  .object({
    url: z.string().url(),
    /** Values may name environment variables as `${NAME}`, so no key is written in config.yaml. */
    headers: z.record(z.string(), z.string()).optional(),
    ...toolRules,
  })
  .strict();

export const mcpServerSpecSchema = z.union([stdioMcpServerSpecSchema, httpMcpServerSpecSchema]);

/** server name → server; its tools reach the model as `SERVER__TOOL`. */
export const mcpServersSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_-]+$/, "expected a server name of letters, digits, _ and -"),
  mcpServerSpecSchema,
);

export type StdioMcpServerSpec = z.infer<typeof stdioMcpServerSpecSchema>;
export type HttpMcpServerSpec = z.infer<typeof httpMcpServerSpecSchema>;
export type McpServerSpec = z.infer<typeof mcpServerSpecSchema>;
export type McpServers = z.infer<typeof mcpServersSchema>;
