import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { runAgentTool } from "../tools/agent-tools.ts";
import type { ToolLoopRun } from "./tool-loop-run.ts";
import type { ContentBlock } from "./transcript.ts";

/**
 * A tool round: runs the turn's tool calls one after another, logging a line for each, and adds
 * their results to the transcript as the next user turn. Returns the result's fields when the run
 * was interrupted or timed out during the round (the round's results are then not kept), else null.
 */
export async function runToolRound(
  run: ToolLoopRun,
  calls: readonly ContentBlock[],
): Promise<Partial<AgentLaunchResult> | null> {
  const results: ContentBlock[] = [];
  for (const call of calls) {
    const outcome = await runAgentTool(String(call.name), call.input, run.toolContext, run.agentTools);
    run.note(`  ${String(call.name)}${outcome.isError ? " (error)" : ""}: ${firstLine(outcome.content)}`);
    results.push({
      type: "tool_result",
      tool_use_id: call.id,
      content: outcome.content,
      ...(outcome.isError ? { is_error: true } : {}),
    });
    const stop = run.stopped();
    if (stop !== null) return stop;
  }
  run.transcript.push({ role: "user", content: results });
  return null;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
