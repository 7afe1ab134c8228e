import { randomUUID } from "node:crypto";
import type { Config, PresetAgentSpec } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { buildAgentVariables } from "../process/agent-variables.ts";
import { buildChildEnvironment } from "../process/child-environment.ts";
import type { PreviousVisit } from "../process/previous-visit.ts";
import { runProcessGroup } from "../process/run-process-group.ts";
import { withPromptFile } from "../process/with-prompt-file.ts";
import { buildClaudeCodeArgs, CLAUDE_CODE_COMMAND } from "./build-claude-code-args.ts";
import { countClaudeCodeUsage } from "./count-claude-code-usage.ts";
import { describeClaudeCodeError } from "./describe-claude-code-error.ts";
import { describePermissionDenials } from "./describe-permission-denials.ts";
import { createClaudeCodeStreamReader } from "./read-claude-code-stream.ts";

export interface RunClaudeCodeAgentOptions extends AgentRunContext {
  spec: PresetAgentSpec;
  /** The role's previous visit: its Claude Code session is resumed, as a fork (see `buildClaudeCodeArgs`). */
  previousVisit?: PreviousVisit;
  /** Sent instead of `prompt` when that session is resumed (see `LaunchAgentOptions.continuationPrompt`). */
  continuationPrompt?: string;
  /** 0 for a step's first launch; a retry (1, 2...) sends only the problem, so it never starts afresh. */
  attempt?: number;
  /** config.yaml, for model prices. */
  config?: Config;
  /** The id of each new session. Default: a random UUID. */
  newSessionId?: () => string;
}

/** Claude Code's messages for a `--resume` session it does not have. */
const MISSING_SESSION = /No conversation found with session ID|does not match any session title/i;

/**
 * The `claude-code` preset: runs the `claude` CLI headless in the thread's cwd,
 * in its own process group (a timeout stops everything it started), with the
 * prompt on stdin, reading its stream of JSON messages as they come (turns and
 * tool calls go to `onActivity`, and with `-v` a line each to `onStderr`). The
 * reply is Claude Code's final result text. The session id is chosen up front,
 * so even an interrupted run records the session it started. Tokens and cost
 * are counted by `countClaudeCodeUsage`; tool calls Claude Code refused are
 * kept and warned about. When the previous visit's session no longer exists
 * (another machine, CI, Claude Code's own clean-up), the first launch of the
 * step starts a fresh conversation instead, from the whole-thread prompt, and
 * says why. A resumed session is sent `continuationPrompt` when given.
 */
export async function runClaudeCodeAgent(options: RunClaudeCodeAgentOptions): Promise<AgentLaunchResult> {
  const previous = options.previousVisit?.sessionId;
  const resume = previous === null || previous === undefined || previous === "" ? null : previous;
  if (resume === null) return launchClaudeCode(options, options.prompt, null);
  const continuation = options.continuationPrompt ?? options.prompt;
  const first = await launchClaudeCode(options, continuation, resume);
  const missing = (options.attempt ?? 0) > 0 ? null : missingSessionMessage(first);
  if (missing === null) return { ...first, continued: true };
  const reason = `the Claude Code session ${resume} of the role's previous visit could not be continued (${missing})`;
  options.onWarning?.(`${reason}; starting a fresh conversation from the whole thread`);
  options.onStderr?.(`Claude Code: ${reason}; starting a fresh conversation\n`);
  const fresh = await launchClaudeCode(options, options.prompt, null);
  return { ...fresh, startedAt: first.startedAt, freshStart: reason };
}

function launchClaudeCode(
  options: RunClaudeCodeAgentOptions,
  prompt: string,
  resume: string | null,
): Promise<AgentLaunchResult> {
  return withPromptFile(prompt, (promptFile) => launchClaudeCodeWith(options, prompt, promptFile, resume));
}

async function launchClaudeCodeWith(
  options: RunClaudeCodeAgentOptions,
  prompt: string,
  promptFile: string,
  resume: string | null,
): Promise<AgentLaunchResult> {
  const { spec } = options;
  const command = spec.command ?? CLAUDE_CODE_COMMAND;
  const chosenSessionId = (options.newSessionId ?? randomUUID)();
  const args = buildClaudeCodeArgs(spec, { sessionId: chosenSessionId, resumeSessionId: resume });
  let lastTool: string | null = null;
  const reader = createClaudeCodeStreamReader((turn) => {
    if (turn.tools.length > 0) {
      lastTool = turn.tools.at(-1) ?? lastTool;
      const who = turn.subagent ? "subagent" : `turn ${turn.turns}`;
      options.onStderr?.(`Claude Code ${who}: ${turn.tools.join(", ")}\n`);
    }
    options.onActivity?.({ turns: turn.turns, tool: lastTool });
  });
  const run = await runProcessGroup({
    command,
    args,
    cwd: options.cwd,
    // Claude Code calls the API itself, so it keeps the provider keys; never the store's secrets.
    env: buildChildEnvironment({
      keepProviderKeys: true,
      secretValues: options.secretValues ?? [],
      add: buildAgentVariables(options.env, promptFile),
    }),
    extendEnv: false,
    input: prompt,
    label: "Claude Code",
    stopLeftovers: true,
    timeoutMs: options.timeoutMs,
    captureStdout: false,
    onStdout: (chunk) => reader.push(chunk),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
  });
  const stream = reader.finish();
  const { result } = stream;
  let error = run.error;
  if (error === null && result === null) {
    const detail = lastLine(run.stderrTail) || lastLine(stream.otherOutput);
    error = `Claude Code ${run.exitCode === 0 ? "gave no result" : `exited with code ${run.exitCode}`}${detail === "" ? "" : `: ${detail}`}`;
  } else if (error === null && result !== null) {
    error = describeClaudeCodeError(result, run.exitCode);
    // Claude Code says some failures (an unknown --resume session) on stderr only.
    if (error !== null && result.errors.length === 0 && result.result.trim() === "") {
      const detail = lastLine(run.stderrTail);
      if (detail !== "") error = `${error}: ${detail}`;
    }
  }
  const counted =
    result === null
      ? null
      : countClaudeCodeUsage({
          result,
          model: stream.model,
          resumed: resume !== null,
          base: resume === null ? {} : (options.previousVisit?.sessionUsage ?? null),
          ...(options.config === undefined ? {} : { config: options.config }),
        });
  const denials = result?.permissionDenials ?? [];
  if (denials.length > 0) options.onWarning?.(describePermissionDenials(denials));
  return {
    ...run,
    reply: result?.result ?? stream.otherOutput,
    error,
    usage: counted?.usage ?? null,
    sessionId: stream.sessionId ?? chosenSessionId,
    transcript: null,
    turns: result?.turns ?? null,
    modelUsage: counted?.modelUsage ?? null,
    sessionUsage: counted?.sessionUsage ?? null,
    permissionDenials: denials,
  };
}

/** Claude Code's message when a launch failed because the session to resume does not exist, else null. */
function missingSessionMessage(result: AgentLaunchResult): string | null {
  if (result.error === null || result.interrupted || result.timedOut) return null;
  const lines = `${result.error}\n${result.stderrTail}`.split("\n");
  const line = lines.find((candidate) => MISSING_SESSION.test(candidate));
  if (line === undefined) return null;
  const start = line.search(/No conversation found/i);
  return line.slice(Math.max(0, start)).trim();
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1)?.trim() ?? "";
}
