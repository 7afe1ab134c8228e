import { loadRecordedAnswer } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { ownBranchSteps } from "../branches/branch-steps.ts";
import type { Resume } from "./step-thread.ts";

const SCRIPTED_PREFIX = "scripted:";

export interface FindRecordedResumeOptions {
  /** The agent the thread is run with: only `scripted:FILE` records answers; any other finds none. */
  agent: string | undefined;
  /** The folder a relative scenario file is read from. */
  baseDir: string;
}

/** A thread (the one run, or one of its branches) and the answer its scenario recorded for it. */
export interface RecordedResume {
  thread: string;
  resume: Resume;
  /** The step the answer resumes into, 1-based in that thread's chain. */
  step: number;
}

/**
 * Where a run played by a scripted scenario goes on after it stopped: the answer the scenario records
 * (an entry's `answer:`, as `uwf scenario export` writes it) for the thread's suspension or its end
 * (the prompt that continued it), or, for a parent waiting on branches, for a suspended branch
 * (its own `branch: KEY` entries), looking through nested fan-outs. Null when none is recorded:
 * the run stops there, as a real one does.
 */
export async function findRecordedResume(
  store: Pick<Store, "refs">,
  record: ThreadRecord,
  options: FindRecordedResumeOptions,
): Promise<RecordedResume | null> {
  const { agent } = options;
  if (agent === undefined || !agent.startsWith(SCRIPTED_PREFIX)) return null;
  const scenario = agent.slice(SCRIPTED_PREFIX.length);
  const visit = async (thread: ThreadRecord, top: boolean): Promise<RecordedResume | null> => {
    if (thread.status === "waiting") {
      for (const link of await store.refs.listBranches(thread.id, thread.stepCount)) {
        const branch = await store.refs.getThread(link.thread);
        if (branch === null) continue;
        const found = await visit(branch, false);
        if (found !== null) return found;
      }
      return null;
    }
    // An ended branch is settled into its join: only the run's own thread is continued after its end.
    const resumable = thread.status === "suspended" || (top && thread.status === "ended");
    if (!resumable || (thread.budget?.exceeded ?? null) !== null) return null;
    const answer = await loadRecordedAnswer({
      scenario,
      baseDir: options.baseDir,
      ...(thread.branchOf === undefined
        ? { stepIndex: thread.stepCount }
        : { stepIndex: ownBranchSteps(thread), branch: thread.branchOf.branch }),
    });
    // An ended thread is continued with a prompt, never with a typed answer's fields.
    if (answer === null || (thread.status === "ended" && !("text" in answer))) return null;
    const resume: Resume = "text" in answer ? { answer: answer.text } : { typedAnswer: answer.fields };
    return { thread: thread.id, resume, step: thread.stepCount + 1 };
  };
  return visit(record, true);
}
