import { isAbsolute, resolve } from "node:path";
import type { ScriptedAgentSpec } from "@uwf/protocol";
import { formatFrontmatter } from "@uwf/workflow";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { buildLaunchResult } from "../process/build-launch-result.ts";
import { parseScenarioReference, type ScenarioStep, safeLoadScenario } from "./load-scenario.ts";

export interface RunScriptedAgentOptions {
  spec: ScriptedAgentSpec;
  /** The folder a relative `scenario` path is read from. */
  baseDir: string;
  /** Steps already in the chain: the index of the scenario entry to play. */
  stepIndex: number;
  /** The role the moderator chose for this step. */
  routedRole: string;
  /** For a branch's step: its key, and how many steps the branch made before this one. */
  branch?: { key: string; index: number };
  /** 0 for the first try, then 1, 2... on retries: picks from a `reply` list. */
  attempt?: number;
  signal?: AbortSignal;
}

/**
 * The `scripted` built-in: replays entry `stepIndex` of a scenario's main sequence (its entries
 * without `branch`), or for a branch's step the branch's own entries (`branch: KEY`, else `branch: "*"`),
 * after checking that the moderator routed to the role the entry names. The
 * reply is the entry's `output` as frontmatter plus its `body`, or its raw
 * `reply`. A mismatch or a missing entry is a failed launch naming both sides. The scenario is a file,
 * or `FILE#THREAD` for one thread of a file of several (`uwf scenario export T1 T2`).
 */
export async function runScriptedAgent(options: RunScriptedAgentOptions): Promise<AgentLaunchResult> {
  const startedAt = new Date();
  if (options.signal?.aborted)
    return buildLaunchResult(startedAt, { interrupted: true, error: "the scripted agent was interrupted" });
  const reference = parseScenarioReference(options.spec.scenario);
  const file = isAbsolute(reference.file) ? reference.file : resolve(options.baseDir, reference.file);
  const loaded = await safeLoadScenario(file, { thread: reference.thread });
  if (!loaded.success) return buildLaunchResult(startedAt, { error: loaded.error.message });

  const { steps, stepIndex, where } = sequenceFor(loaded.value.steps, options);
  const stepNumber = stepIndex + 1;
  const entry = steps[stepIndex];
  if (entry === undefined) {
    return buildLaunchResult(startedAt, {
      error: `scenario ${file} has ${steps.length} ${steps.length === 1 ? "step" : "steps"}${where}, so it has nothing for step ${stepNumber} (role ${options.routedRole})`,
    });
  }
  if (entry.role !== options.routedRole) {
    return buildLaunchResult(startedAt, {
      error: `scenario step ${stepNumber} expects role ${entry.role} but the moderator chose ${options.routedRole} (${file})`,
    });
  }
  return buildLaunchResult(startedAt, {
    reply: pickReply(entry.reply, options.attempt ?? 0) ?? formatFrontmatter(entry.output, entry.body),
    exitCode: 0,
  });
}

/** A list of replies gives one per attempt; the last one repeats. */
function pickReply(reply: string | string[] | null, attempt: number): string | null {
  if (reply === null || typeof reply === "string") return reply;
  return reply[Math.min(attempt, reply.length - 1)] ?? null;
}

/** The entries a step plays from, and its index among them: a branch's own (or the `*` ones), else the main sequence. */
function sequenceFor(
  all: readonly ScenarioStep[],
  options: Pick<RunScriptedAgentOptions, "stepIndex" | "branch">,
): { steps: readonly ScenarioStep[]; stepIndex: number; where: string } {
  const { branch } = options;
  if (branch === undefined) {
    return { steps: all.filter((entry) => entry.branch === null), stepIndex: options.stepIndex, where: "" };
  }
  const own = all.filter((entry) => entry.branch === branch.key);
  const steps = own.length > 0 ? own : all.filter((entry) => entry.branch === "*");
  return { steps, stepIndex: branch.index, where: ` for branch ${branch.key}` };
}
