import type { Store } from "@uwf/cas";
import { type Address, END, type ThreadRecord } from "@uwf/protocol";
import { type CompiledWorkflow, pickNextRole, renderJoinPrompt, UnknownRoleError } from "@uwf/workflow";
import { type PreparedJoin, prepareJoin } from "../branches/prepare-join.ts";
import { readFanOut } from "../branches/read-fan-out.ts";
import type { ThreadChain } from "../history/read-chain.ts";
import type { ThreadHistory } from "../history/thread-history.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import { answeredSuspensionPrompt, answeredTypedSuspensionPrompt } from "./answered-suspension.ts";
import type { StepMode } from "./check-steppable.ts";

export type StepRole =
  | { ended: true }
  | {
      ended: false;
      roleName: string;
      edgePrompt: string;
      /** The step is a `role:` branch's: its reply ends the branch, following no edge. */
      endsBranch: boolean;
      /** The step is a join: the branches it joins. */
      join: PreparedJoin | null;
      /** The step answers a typed suspension: the person's answer. */
      answer: Record<string, unknown> | null;
    };

export interface ChooseStepRoleOptions {
  compiled: CompiledWorkflow;
  record: ThreadRecord;
  chain: ThreadChain;
  history: ThreadHistory;
  mode: StepMode;
  resumeAnswer: string | undefined;
  /** A typed answer's accepted fields: the answering step's prompt shows them as YAML. */
  answerFields?: Record<string, unknown> | undefined;
  store: Store;
}

/**
 * Who acts next and what they are told. An answered suspension re-runs the suspended role with its
 * reason and the answer; otherwise the moderator decides (on resuming an ended thread, through the
 * workflow's `$START` resume edge, with the user's prompt appended).
 */
export async function chooseStepRole(options: ChooseStepRoleOptions): Promise<StepRole> {
  const { record, history, mode, resumeAnswer, store } = options;
  const last = history.steps.at(-1);
  const branch = record.branchOf;
  const endsBranch = branch !== undefined && branch.role !== null && mode !== "resume-ended";
  if (mode === "answer-suspended" && last !== undefined) {
    const reason = record.reason ?? "(no reason given)";
    const fields = options.answerFields ?? null;
    return {
      ended: false,
      roleName: last.role,
      edgePrompt:
        fields === null
          ? answeredSuspensionPrompt(reason, resumeAnswer ?? "")
          : answeredTypedSuspensionPrompt(reason, resumeAnswer ?? ""),
      endsBranch,
      join: null,
      answer: fields,
    };
  }
  // A `role:` branch's one step: its role, told what its fan-out rendered for it.
  if (endsBranch && branch !== undefined && branch.role !== null && history.length === branch.step) {
    const planned = (await readFanOut(store.objects, branch.address))?.branches.find(
      ({ key }) => key === branch.branch,
    );
    if (planned === undefined) throw new UnknownRoleError(record.workflow, `${branch.role} (branch ${branch.branch})`);
    return { ended: false, roleName: branch.role, edgePrompt: planned.prompt, endsBranch, join: null, answer: null };
  }
  // The step after a fan-out is its join, once the policy holds (the parent is active again).
  if (mode !== "resume-ended" && last !== undefined && (await history.node(history.length - 1)).fanOut !== undefined) {
    return chooseJoin(options, last.address as Address);
  }
  const moderatorMode = mode === "resume-ended" ? "resume" : history.length === 0 ? "new" : "continue";
  const decision = await withModeratorHistory({ record, start: options.chain.start, history }, (view) =>
    pickNextRole(options.compiled, view, { mode: moderatorMode }),
  );
  if (decision.role === END) return { ended: true };
  const edgePrompt = mode === "resume-ended" ? `${decision.prompt}\n\n${resumeAnswer}` : decision.prompt;
  return { ended: false, roleName: decision.role, edgePrompt, endsBranch: false, join: null, answer: null };
}

/** The join role, told its edge prompt (rendered with `branches`) and then every branch's result. */
async function chooseJoin(options: ChooseStepRoleOptions, fanOutAddress: Address): Promise<StepRole> {
  const { store, record, history } = options;
  const plan = await readFanOut(store.objects, fanOutAddress);
  if (plan === null) throw new UnknownRoleError(record.workflow, "(join)");
  const join = await prepareJoin(store, record, plan, { step: history.length, address: fanOutAddress });
  const from = history.steps.at(-1)?.role ?? "";
  const rendered = await withModeratorHistory(
    { record, start: options.chain.start, history, branches: join.value },
    (view) =>
      renderJoinPrompt({ compiled: options.compiled, from, edge: plan.edge, history: view, branches: join.value }),
  );
  const edgePrompt = rendered.trim() === "" ? join.section : `${rendered}\n\n${join.section}`;
  return { ended: false, roleName: plan.join.role, edgePrompt, endsBranch: false, join, answer: null };
}
