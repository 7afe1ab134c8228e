import type { AgentEnvironment } from "../process/agent-launch-result.ts";

/** What every tool call of the built-in agent can use. */
export interface ToolContext {
  /** The thread's cwd as a real path: file tools stay inside it, commands run in it. */
  workspace: string;
  /** The step; `env.home` is the uwf home, which file tools refuse to touch. */
  env: AgentEnvironment;
  /** Aborted on timeout or Ctrl-C: a running command is stopped. */
  signal: AbortSignal;
  /** When the step's time runs out (epoch milliseconds), or null for no limit. Each call gets its own, earlier one. */
  deadline: number | null;
  killGraceMs?: number;
  /**
   * The run's launch tag (stopTaggedProcesses): `run_command`'s commands carry it, so what they leave
   * running (a dev server the agent uses in a later call) lives until the run ends and is stopped then.
   */
  launchTag?: string;
  /** Key variables beyond `ANTHROPIC_*` and `*_API_KEY` (the providers' `apiKeyEnv`): not in `run_command`'s environment. */
  keyVariables?: readonly string[];
  /** Key variables `run_command` gets after all (the agent's `passEnv`). */
  passEnv?: readonly string[];
  /** Values no tool result may show (the API key in use): replaced by `[redacted]`. */
  secretValues?: readonly string[];
}

/** The reason of a tool call's signal when the call ran out of its own time (not the step's). */
/** The `path` input of the tools that read or write one file: the same words to the model from each. */
export const FILE_PATH_PROPERTY = { type: "string", description: "Path relative to the working directory" } as const;

export const TOOL_TIME_LIMIT_REASON = "time-limit";

/** A tool's answer to the model. Thrown errors become `is_error` results with their message. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/** One tool of the built-in agent: its definition for the API and what it does. */
export interface AgentTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
  /**
   * Set on a tool the model is not offered (an MCP server's tool its `allow`/`deny` lists leave out):
   * `toolDefinitions` leaves it out, and a call of it is refused with this reason.
   */
  refusal?: string;
  /** Milliseconds one call may take (see `runAgentTool`); default `DEFAULT_TOOL_TIME_LIMIT_MS`. */
  timeLimitMs?(input: Record<string, unknown>): number;
}

/** Tool input problems: the model gets the message and can call again. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

export function stringInput(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== "string") throw new ToolInputError(`"${name}" must be a string`);
  return value;
}

export function optionalStringInput(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ToolInputError(`"${name}" must be a string`);
  return value;
}

export function optionalNumberInput(input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ToolInputError(`"${name}" must be a number ≥ 0`);
  }
  return value;
}

export function optionalBooleanInput(input: Record<string, unknown>, name: string): boolean | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new ToolInputError(`"${name}" must be true or false`);
  return value;
}

export function ok(content: string): ToolResult {
  return { content, isError: false };
}
