import type { ShellAgentSpec } from "@uwf/protocol";
import { formatFrontmatter } from "@uwf/workflow";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { buildAgentVariables } from "../process/agent-variables.ts";
import { buildChildEnvironment } from "../process/child-environment.ts";
import { runProcessGroup } from "../process/run-process-group.ts";
import { TailBuffer } from "../process/tail-buffer.ts";
import { withPromptFile } from "../process/with-prompt-file.ts";
import { fenceText } from "../prompt/fence-text.ts";

/** Characters of combined output a shell agent reports unless its spec sets `tail`. */
export const DEFAULT_SHELL_TAIL = 4_000;
const STDERR_TAIL_LENGTH = 4_096;

export interface RunShellAgentOptions extends AgentRunContext {
  spec: ShellAgentSpec;
  /** Key variables beyond `ANTHROPIC_*` and `*_API_KEY` (the providers' `apiKeyEnv`): left out unless passed. */
  keyVariables?: readonly string[];
}

/**
 * The `shell` built-in: runs `spec.run` with `sh -c` in the thread's cwd and
 * replies `$status: pass|fail` and `exitCode`, with the tail of its combined
 * stdout and stderr as the body. A non-zero exit is a `fail` status, not a
 * failed launch; only a timeout, an interrupt or a failure to start is.
 * stdin is empty; the prompt is in `UWF_PROMPT_FILE`; provider keys are not in
 * the environment unless `spec.passEnv` names them. stderr is merged into
 * stdout (`exec 2>&1`), so `stderrTail` and `onStderr` carry the combined output.
 */
export async function runShellAgent(options: RunShellAgentOptions): Promise<AgentLaunchResult> {
  const { spec } = options;
  const output = new TailBuffer(spec.tail ?? DEFAULT_SHELL_TAIL);
  const outputTail = new TailBuffer(STDERR_TAIL_LENGTH);
  // One stream for stdout and stderr keeps their lines in the order they were written.
  const script = `exec 2>&1\n${spec.run}`;
  return withPromptFile(options.prompt, async (promptFile) => {
    const result = await runProcessGroup({
      command: "sh",
      args: ["-c", script],
      cwd: options.cwd,
      env: buildChildEnvironment({
        keyVariables: options.keyVariables ?? [],
        passEnv: spec.passEnv ?? [],
        secretValues: options.secretValues ?? [],
        add: buildAgentVariables(options.env, promptFile),
      }),
      extendEnv: false,
      timeoutMs: options.timeoutMs,
      captureStdout: false,
      label: "the shell command",
      stopLeftovers: true,
      onStdout: (chunk) => {
        output.append(chunk);
        outputTail.append(chunk);
        options.onStderr?.(chunk);
      },
      onStderr: (chunk) => {
        output.append(chunk);
        outputTail.append(chunk);
        options.onStderr?.(chunk);
      },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
    const status = result.error === null && result.exitCode === 0 ? "pass" : "fail";
    return {
      ...result,
      reply: formatFrontmatter({ $status: status, exitCode: result.exitCode }, formatOutputBody(output)),
      stderrTail: outputTail.toString(),
    };
  });
}

function formatOutputBody(output: TailBuffer): string {
  const text = output.toString();
  if (output.totalLength === 0) return "(no output)";
  const note =
    output.totalLength > text.length
      ? `The last ${text.length} of ${output.totalLength} characters of output:`
      : "Output:";
  return `${note}\n\n${fenceText(text, "text")}`;
}
