import { messageOf } from "@uwf/protocol";
import { formatSeconds } from "../process/format-seconds.ts";
import { DEFAULT_KILL_GRACE_MS } from "../process/run-process-group.ts";
import { type AgentTool, TOOL_TIME_LIMIT_REASON, type ToolContext, type ToolResult } from "./agent-tool.ts";
import { editFileTool } from "./edit-file-tool.ts";
import { listFilesTool } from "./list-files-tool.ts";
import { readFileTool } from "./read-file-tool.ts";
import { collectSecretValues, redactSecrets } from "./redact-secrets.ts";
import { runCommandTool } from "./run-command-tool.ts";
import { searchFilesTool } from "./search-files-tool.ts";
import { writeFileTool } from "./write-file-tool.ts";

/** Milliseconds one tool call may take when its tool sets no limit of its own. */
export const DEFAULT_TOOL_TIME_LIMIT_MS = 60_000;
const STEP_DEADLINE_REASON = "step-deadline";

/** The built-in agent's tools, in the order the model sees them. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  searchFilesTool,
  runCommandTool,
];

/** The tools the model is offered: all but those with a `refusal` (see `AgentTool.refusal`). */
export function offeredTools(tools: readonly AgentTool[]): AgentTool[] {
  return tools.filter((tool) => tool.refusal === undefined);
}

/** The `tools` parameter of a Messages API request: the offered tools. */
export function toolDefinitions(tools: readonly AgentTool[] = AGENT_TOOLS): Array<{
  name: string;
  description: string;
  input_schema: AgentTool["inputSchema"];
}> {
  return offeredTools(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}

/**
 * Runs one tool call. Never throws: an unknown tool, bad input or a failure is
 * an `is_error` result for the model. Every call has a deadline: the tool's time
 * limit, or the step's deadline when that comes first. When the deadline passes
 * or the step is stopped (timeout, Ctrl-C, SIGTERM), the call's signal aborts
 * and the tool gets the kill grace to stop what it started; one that still has
 * not returned is left behind with an error result, so the step always ends.
 * Secrets (see `collectSecretValues`) are cut out of the result.
 */
export async function runAgentTool(
  name: string,
  input: unknown,
  context: ToolContext,
  tools: readonly AgentTool[] = AGENT_TOOLS,
): Promise<ToolResult> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    return {
      content: `unknown tool "${name}"; the tools are ${offeredTools(tools)
        .map((t) => t.name)
        .join(", ")}`,
      isError: true,
    };
  }
  if (tool.refusal !== undefined)
    return { content: `the tool "${name}" is not available: ${tool.refusal}`, isError: true };
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { content: "the tool input must be a JSON object", isError: true };
  }
  const result = await runToolWithDeadline(tool, input as Record<string, unknown>, context);
  const secrets = await collectSecretValues(context);
  return { content: redactSecrets(result.content, secrets), isError: result.isError };
}

/** One call of `tool` under its deadline (see `runAgentTool`); a thrown error is an `is_error` result. */
export async function runToolWithDeadline(
  tool: AgentTool,
  input: Record<string, unknown>,
  context: ToolContext,
): Promise<ToolResult> {
  const limitMs = timeLimitOf(tool, input);
  const ownDeadline = Date.now() + limitMs;
  const deadline = Math.min(ownDeadline, context.deadline ?? Number.POSITIVE_INFINITY);
  const reason = deadline === ownDeadline ? TOOL_TIME_LIMIT_REASON : STEP_DEADLINE_REASON;
  const timeLimit = new AbortController();
  const signal = AbortSignal.any([context.signal, timeLimit.signal]);
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  timers.push(setTimeout(() => timeLimit.abort(reason), Math.max(0, deadline - Date.now())));
  const running = Promise.resolve()
    .then(() => tool.run(input, { ...context, signal, deadline }))
    .catch(
      (error: unknown): ToolResult => ({
        content: messageOf(error),
        isError: true,
      }),
    );
  const stopped = new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null);
    else signal.addEventListener("abort", () => resolve(null), { once: true });
  });
  try {
    const first = await Promise.race([running, stopped]);
    if (first !== null) return first;
    const graceMs = context.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const grace = new Promise<null>((resolve) => timers.push(setTimeout(() => resolve(null), graceMs)));
    const settled = await Promise.race([running, grace]);
    if (settled !== null) return settled;
    const why =
      context.signal.aborted || signal.reason === STEP_DEADLINE_REASON
        ? "the step was stopped"
        : `it did not finish within ${formatSeconds(limitMs)}`;
    return { content: `${tool.name} was stopped: ${why}`, isError: true };
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}

function timeLimitOf(tool: AgentTool, input: Record<string, unknown>): number {
  try {
    return tool.timeLimitMs?.(input) ?? DEFAULT_TOOL_TIME_LIMIT_MS;
  } catch {
    // Bad input: the tool itself says what is wrong.
    return DEFAULT_TOOL_TIME_LIMIT_MS;
  }
}
