import { type Address, type AgentRunNode, replaceLoneSurrogates } from "@uwf/protocol";
import type { NodeBatch } from "./node-batch.ts";
import type { AgentRunResult } from "./run-agent-with-retries.ts";
import type { StoredPrompt } from "./stored-prompt.ts";

export interface BuildAgentRunNodeOptions {
  batch: NodeBatch;
  alias: string;
  kind: string;
  cwd: string;
  prompt: string;
  /** `prompt` as the store keeps it (written already), recorded when the first attempt was sent exactly that. */
  storedPrompt?: StoredPrompt;
  run: AgentRunResult;
  /** The thread it ran for (recorded so that recover knows which thread made the step). */
  thread: string;
}

/**
 * The agent-run record: every attempt's request and raw reply go into the batch, so nothing is lost.
 * Its `prompt` is what the first attempt was really sent (the short prompt when the agent continued
 * its conversation), else the planned one. A lone surrogate (half a UTF-16 pair, which canonical
 * JSON cannot carry: an agent that writes UTF-16, a model's `\ud800`) is stored as U+FFFD, so that a
 * run with one is kept like any other.
 */
export function buildAgentRunNode({
  batch,
  alias,
  kind,
  cwd,
  prompt: planned,
  storedPrompt,
  run,
  thread,
}: BuildAgentRunNodeOptions): Address {
  const addText = (text: string) => batch.addText(replaceLoneSurrogates(text));
  const prompt = run.attempts[0]?.request ?? planned;
  let promptAddress: Address;
  // The planned prompt's nodes were written durably before the agent started (checkStoreWritable), under
  // the step's lease: gc keeps what was written since the lease was taken (findLeaseCutoff), so they are
  // not hashed and put again here.
  if (storedPrompt !== undefined && prompt === planned) promptAddress = storedPrompt.address;
  else promptAddress = addText(prompt);
  const node: AgentRunNode = {
    type: "agent-run/1",
    agent: alias,
    kind,
    command: run.attempts[0]?.result.command ?? null,
    cwd,
    prompt: promptAddress,
    attempts: run.attempts.map(({ request, result, error }) => ({
      request: request === prompt ? promptAddress : addText(request),
      reply: addText(result.reply),
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      interrupted: result.interrupted,
      stderrTail: result.stderrTail,
      error,
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      // What agents such as Claude Code report besides: written only when there is something to keep.
      ...(result.turns === undefined || result.turns === null ? {} : { turns: result.turns }),
      ...(result.modelUsage === undefined || result.modelUsage === null ? {} : { modelUsage: result.modelUsage }),
      ...(result.sessionUsage === undefined || result.sessionUsage === null
        ? {}
        : { sessionUsage: result.sessionUsage }),
      ...(result.permissionDenials === undefined || result.permissionDenials.length === 0
        ? {}
        : { permissionDenials: result.permissionDenials }),
      ...(result.freshStart === undefined || result.freshStart === null ? {} : { freshStart: result.freshStart }),
      ...(result.usageProblem === undefined || result.usageProblem === null
        ? {}
        : { usageProblem: result.usageProblem }),
    })),
    outcome: run.outcome,
    error: run.error,
    sessionId: run.sessionId,
    usage: run.usage,
    extraction: run.outcome === "ok" ? (run.extraction ?? "frontmatter") : null,
    transcript:
      run.transcript === null
        ? null
        : batch.add({ type: "transcript/1", messages: replaceLoneSurrogates(run.transcript) }),
    thread,
  };
  return batch.add(replaceLoneSurrogates(node));
}
