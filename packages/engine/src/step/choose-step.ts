import {
  buildContinuationPrompt,
  continuesConversation,
  firstShownStep,
  type NamedStep,
  type ResolvedAgent,
  resolveAgent,
} from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import type { Config } from "@uwf/protocol";
import { UnknownRoleError } from "@uwf/workflow";
import type { PreparedJoin } from "../branches/prepare-join.ts";
import { ThreadStrandedError } from "../errors/thread-stranded-error.ts";
import type { HistoryStep } from "../history/history-step.ts";
import type { ThreadHistory } from "../history/thread-history.ts";
import { describeRoutingProblem } from "../routing/route-reply.ts";
import { buildWholeThreadPrompt } from "./build-whole-thread-prompt.ts";
import { type ChooseStepRoleOptions, chooseStepRole, type StepRole } from "./choose-step-role.ts";
import type { StepState } from "./load-step-state.ts";
import type { StoredPrompt } from "./stored-prompt.ts";

/** The step to run: its number, role, agent and the prompt that agent gets. */
export interface PlannedStep {
  number: number;
  roleName: string;
  edgePrompt: string;
  agent: ResolvedAgent;
  /** The whole thread: what every agent gets, but one that continues its conversation. */
  prompt: string;
  /** `prompt` as the store keeps it: its shared history entries apart (see storedPrompt). */
  storedPrompt: StoredPrompt;
  /**
   * The role's last visit and the steps since, for an agent that continues its conversation of
   * that visit (`continuesConversation`); null when the agent keeps none or the role has no earlier visit.
   */
  continuationPrompt: string | null;
  /** A `role:` branch's step: its reply ends the branch instead of being routed. */
  endsBranch: boolean;
  /** A join step: the branches it joins, recorded with it. */
  join: PreparedJoin | null;
  /** The step that answers a typed suspension: the person's answer, recorded with it as an `answer/1` node. */
  answer: Record<string, unknown> | null;
}

export interface ChooseStepOptions {
  store: Store;
  config: Config;
  home: string;
  /** The agent alias (or `scripted:FILE`) for roles that name no agent of their own. */
  defaultAgent?: string;
  /** Overrides every agent's timeout. */
  timeoutSeconds?: number;
  resumeAnswer?: string;
  /** A typed answer's accepted fields (`Resume.answerFields`). */
  answerFields?: Record<string, unknown>;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
}

/** The step's second phase: who acts next, played by which agent, told what; or that the thread has ended. */
export async function chooseStep(
  state: StepState,
  options: ChooseStepOptions,
): Promise<{ ended: true } | ({ ended: false } & PlannedStep)> {
  const { chain, history, workflow } = state;
  const chosen = await chooseOrExplain({
    ...state,
    resumeAnswer: options.resumeAnswer,
    answerFields: options.answerFields,
    store: options.store,
  });
  options.trace?.("next role chosen");
  if (chosen.ended) return chosen;
  const { roleName, edgePrompt, endsBranch, join, answer } = chosen;
  const role = workflow.roles[roleName];
  if (role === undefined) throw new UnknownRoleError(workflow.name, roleName);
  const agent = resolveAgent({
    config: options.config,
    workflowName: workflow.name,
    role,
    roleName,
    flagAlias: options.defaultAgent,
    timeoutSeconds: options.timeoutSeconds,
    home: options.home,
  });
  const promptOptions = {
    workflow,
    roleName,
    task: chain.start.prompt,
    ...(chain.start.inputs === undefined ? {} : { inputs: chain.start.inputs }),
    edgePrompt,
  };
  const { prompt, stored } = await buildWholeThreadPrompt({
    ...promptOptions,
    history,
    workflowAddress: state.record.workflowAddress,
  });
  const continues = continuesConversation(agent.spec) && history.steps.some((step) => step.role === roleName);
  const continuationPrompt = continues
    ? buildContinuationPrompt({
        ...promptOptions,
        history: await sinceLastVisit(history, roleName),
        continuesConversation: true,
      })
    : null;
  options.trace?.("prompt built");
  return {
    ended: false,
    number: history.length + 1,
    roleName,
    edgePrompt,
    agent,
    prompt,
    storedPrompt: stored,
    continuationPrompt,
    endsBranch,
    join,
    answer,
  };
}

/**
 * chooseStepRole, except that a thread whose last reply leads nowhere (committed by an older uwf,
 * or a plain fork of such a step) fails with what to do about it instead of the moderator's error.
 */
async function chooseOrExplain(options: ChooseStepRoleOptions): Promise<StepRole> {
  const { record, history } = options;
  try {
    return await chooseStepRole(options);
  } catch (error) {
    const last = history.steps.at(-1);
    const plain = options.mode === "step" || options.mode === "lift-budget" || options.mode === "resume-failed";
    if (!plain || last === undefined) throw error;
    const fields = history.peek(history.length - 1).output ?? {};
    const problem = describeRoutingProblem(error, { workflow: options.compiled.workflow, fields });
    if (problem === null) throw error;
    throw new ThreadStrandedError(record.id, record.head, last.role, problem, { cause: error });
  }
}

/** What a continuing agent's prompt shows: the steps from the role's last visit on, whole; the earlier ones by number and role. */
async function sinceLastVisit(history: ThreadHistory, roleName: string): Promise<Array<HistoryStep | NamedStep>> {
  const from = firstShownStep(history.steps, roleName);
  const named = history.steps.slice(0, from).map(({ role }, index) => ({ number: index + 1, role }));
  return [...named, ...(await history.stepsFrom(from))];
}
