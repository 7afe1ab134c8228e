import type { ModeratorHistory } from "@uwf/agent-kit";
import type { ThreadRecord } from "@uwf/protocol";
import type { HistoryStep } from "./load-history.ts";

/** What conditions and edge prompts see of a thread (DESIGN §2): the start, the thread id and every step, oldest first. */
export function toModeratorHistory(
  record: Pick<ThreadRecord, "id" | "workflow">,
  start: { prompt: string; cwd: string },
  history: HistoryStep[],
): ModeratorHistory {
  return {
    start: { prompt: start.prompt, workflow: record.workflow, cwd: start.cwd },
    thread: { id: record.id },
    steps: history.map((step) => ({
      role: step.role,
      output: step.output,
      body: step.body,
      agent: step.agent,
      startedAt: step.startedAt,
      completedAt: step.completedAt,
    })),
  };
}
