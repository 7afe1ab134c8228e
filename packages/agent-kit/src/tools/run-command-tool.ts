import { buildChildEnvironment } from "../process/child-environment.ts";
import { runProcessGroup } from "../process/run-process-group.ts";
import { TailBuffer } from "../process/tail-buffer.ts";
import { type AgentTool, optionalNumberInput, stringInput, type ToolResult } from "./agent-tool.ts";

export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 120;
export const MAX_COMMAND_TIMEOUT_SECONDS = 600;
/** Characters of a command's output (stdout and stderr, interleaved) the model gets: the last ones. */
export const COMMAND_OUTPUT_LIMIT = 30_000;

export const runCommandTool: AgentTool = {
  name: "run_command",
  description: `Run a shell command (sh -c) in the working directory, with no input and without the provider API keys in its environment. Returns the exit code and the combined stdout and stderr (the last ${COMMAND_OUTPUT_LIMIT} characters). Stopped after timeout_seconds (default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}, at most ${MAX_COMMAND_TIMEOUT_SECONDS}).`,
  inputSchema: {
    type: "object",
    properties: {
      command: { type: "string", description: "The command line, run by sh -c" },
      timeout_seconds: { type: "number", description: `Seconds before the command is stopped` },
    },
    required: ["command"],
  },
  // The command's own timeout stops it first; the call's deadline is a backstop a second later.
  timeLimitMs: (input) => commandTimeoutMs(input) + 1_000,
  async run(input, context): Promise<ToolResult> {
    const command = stringInput(input, "command");
    let timeoutMs = commandTimeoutMs(input);
    if (context.deadline !== null) timeoutMs = Math.max(1, Math.min(timeoutMs, context.deadline - Date.now()));
    const output = new TailBuffer(COMMAND_OUTPUT_LIMIT);
    const result = await runProcessGroup({
      command: "sh",
      // stderr joins stdout in the shell itself, so the model sees both in the order they were written.
      args: ["-c", `exec 2>&1\n${command}`],
      cwd: context.workspace,
      // No keys (unless the agent's `passEnv` names them) and no UWF_HOME: the home holds the store and `.env`.
      env: buildChildEnvironment({
        keyVariables: context.keyVariables ?? [],
        passEnv: context.passEnv ?? [],
        secretValues: context.secretValues ?? [],
        remove: ["UWF_HOME"],
        add: { UWF_THREAD: context.env.thread, UWF_ROLE: context.env.role, UWF_STEP: String(context.env.step) },
      }),
      extendEnv: false,
      timeoutMs,
      signal: context.signal,
      captureStdout: false,
      onStdout: (chunk) => output.append(chunk),
      onStderr: (chunk) => output.append(chunk),
      label: "the command",
      ...(context.launchTag === undefined ? {} : { launchTag: context.launchTag }),
      ...(context.killGraceMs === undefined ? {} : { killGraceMs: context.killGraceMs }),
    });
    const cut =
      output.totalLength > COMMAND_OUTPUT_LIMIT
        ? `[output cut: showing the last ${COMMAND_OUTPUT_LIMIT} of ${output.totalLength} characters]\n`
        : "";
    const text = `${cut}${output.toString()}`;
    if (result.error !== null) return { content: `${result.error}\n${text}`.trimEnd(), isError: true };
    return { content: `exit code ${result.exitCode}\n${text}`.trimEnd(), isError: false };
  },
};

function commandTimeoutMs(input: Record<string, unknown>): number {
  const requested = optionalNumberInput(input, "timeout_seconds") ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  return Math.min(Math.max(requested, 1), MAX_COMMAND_TIMEOUT_SECONDS) * 1000;
}
