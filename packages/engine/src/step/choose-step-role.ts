import { END, type ThreadRecord } from "@uwf/protocol";
import { type CompiledWorkflow, pickNextRole } from "@uwf/workflow";
import type { ThreadChain } from "../history/read-chain.ts";
import type { ThreadHistory } from "../history/thread-history.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import { answeredSuspensionPrompt } from "./answered-suspension.ts";
import type { StepMode } from "./check-steppable.ts";

export type StepRole = { ended: true } | { ended: false; roleName: string; edgePrompt: string };

export interface ChooseStepRoleOptions {
  compiled: CompiledWorkflow;
  record: ThreadRecord;
  chain: ThreadChain;
  history: ThreadHistory;
  mode: StepMode;
  resumeAnswer: string | undefined;
}

/**
 * Who acts next and what they are told. An answered suspension re-runs the suspended role with its
 * reason and the answer; otherwise the moderator decides (on resuming an ended thread, through the
 * workflow's `$START` resume edge, with the user's prompt appended).
 */
export async function chooseStepRole(options: ChooseStepRoleOptions): Promise<StepRole> {
  const { record, history, mode, resumeAnswer } = options;
  const last = history.steps.at(-1);
  if (mode === "answer-suspended" && last !== undefined) {
    const reason = record.reason ?? "(no reason given)";
    return {
      ended: false,
      roleName: last.role,
      edgePrompt: answeredSuspensionPrompt(reason, resumeAnswer ?? ""),
    };
  }
  const moderatorMode = mode === "resume-ended" ? "resume" : history.length === 0 ? "new" : "continue";
  const decision = await withModeratorHistory({ record, start: options.chain.start, history }, (view) =>
    pickNextRole(options.compiled, view, { mode: moderatorMode }),
  );
  if (decision.role === END) return { ended: true };
  const edgePrompt = mode === "resume-ended" ? `${decision.prompt}\n\n${resumeAnswer}` : decision.prompt;
  return { ended: false, roleName: decision.role, edgePrompt };
}
