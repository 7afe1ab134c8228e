import { resolve } from "node:path";
import { runProcessGroup } from "@uwf/agent-kit";
import { type EvalScorerReply, type EvalThreadView, evalScorerReplySchema } from "@uwf/protocol";
import { type AssertionResult, errored, oneLine, passedOrFailed } from "./assertion-result.ts";

/** Seconds a command scorer may run on one thread before its process group is stopped. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 60;

export interface ScoreCommandOptions {
  name: string;
  /** One string runs with `sh -c`; a list runs as it is. */
  command: string | readonly string[];
  /** Where it runs: `cwd` of the assertion resolved against `baseCwd`. */
  cwd: string;
  timeoutSeconds: number;
  signal?: AbortSignal;
}

/**
 * Runs a command scorer on one thread: the view (with bodies) as JSON on stdin, `UWF_THREAD` and
 * `UWF_HEAD` in its environment, in its own process group (stopped whole on timeout or abort). Its
 * stdout must be one JSON object `{ pass, score?, reason? }`; an exit code other than 0, a signal, a
 * timeout or any other output errs, with the tail of its stderr.
 */
export async function scoreCommand(view: EvalThreadView, options: ScoreCommandOptions): Promise<AssertionResult> {
  const [command, ...args] = typeof options.command === "string" ? ["sh", "-c", options.command] : options.command;
  const label = `the scorer ${JSON.stringify(options.name)}`;
  const result = await runProcessGroup({
    command: command as string,
    args,
    cwd: options.cwd,
    env: { UWF_THREAD: view.thread, UWF_HEAD: view.head },
    input: JSON.stringify(view),
    timeoutMs: options.timeoutSeconds * 1000,
    captureStdout: true,
    label,
    stderrTailLength: 2000,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const stderr = stderrTail(result.stderrTail);
  if (result.error !== null) return errored(`${result.error}${stderr}`);
  if (result.exitCode !== 0) return errored(`${label} exited with code ${result.exitCode}${stderr}`);
  const reply = parseScorerReply(result.reply);
  if (typeof reply === "string") return errored(`${label} ${reply}${stderr}`);
  return passedOrFailed(reply.pass, reply.score ?? null, reply.reason ?? null);
}

/** The scorer's stdout as its reply, or what is wrong with it. */
export function parseScorerReply(stdout: string): EvalScorerReply | string {
  const text = stdout.trim();
  if (text === "") return "printed nothing (expected one JSON object { pass, score?, reason? })";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `printed something other than one JSON object: ${JSON.stringify(clip(text, 120))}`;
  }
  const parsed = evalScorerReplySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    return `printed ${clip(text, 120)}, not { pass: boolean, score?: number in [0, 1], reason?: string } (${where}${issue?.message ?? "invalid"})`;
  }
  return parsed.data;
}

/** Where a scorer runs: its `cwd` against the base (the suite's folder, or the current directory). */
export function scorerCwd(baseCwd: string, cwd: string | undefined): string {
  return resolve(baseCwd, cwd ?? ".");
}

function stderrTail(tail: string): string {
  const text = oneLine(tail.slice(-300), 300);
  return text === "" ? "" : ` (stderr: ${text})`;
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
