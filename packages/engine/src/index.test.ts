import { describe, expect, it } from "bun:test";
import * as engine from "./index.ts";

describe("the @uwf/engine entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(engine).sort()).toEqual([
      "AgentFailedError",
      "AmbiguousThreadError",
      "BrokenChainError",
      "BudgetExceededError",
      "CANCEL_WAIT_MS",
      "CancelPendingError",
      "DEFAULT_RETRY_POLICY",
      "EnvironmentError",
      "FORK_BATCH_SIZE",
      "HeadConflictError",
      "InterruptedError",
      "LeaseLostError",
      "NoReplyToReplaceError",
      "NodeNotOnThreadError",
      "NotAThreadNodeError",
      "NotAWorkflowError",
      "ResumeMismatchError",
      "STEP_LEASE_TTL_MS",
      "ThreadAlreadyEndedError",
      "ThreadBusyError",
      "ThreadCancelledError",
      "ThreadEndedError",
      "ThreadFailedError",
      "ThreadNotFoundError",
      "ThreadNotResumableError",
      "ThreadStrandedError",
      "ThreadSuspendedError",
      "UnexpectedNodeKindError",
      "UnroutableReplyError",
      "WORKER_POLL_MS",
      "WorkflowNotFoundError",
      "asEnvironmentError",
      "buildFamilyTree",
      "cancelThread",
      "claimOrphanedThread",
      "classifyStepFailure",
      "describeFailure",
      "describeReachedLimit",
      "diffChains",
      "dropDamagedChainIndexes",
      "expandNode",
      "failThread",
      "findChainIndexProblems",
      "followThread",
      "forkThread",
      "forkThreads",
      "formatAmount",
      "holdLease",
      "listRunningThreads",
      "loadHistory",
      "loadStepSummaries",
      "readChain",
      "recoverThreads",
      "registerWorkflowFile",
      "requeueFailedThread",
      "resolveNodeOrThread",
      "resolveRetryPolicy",
      "resolveThread",
      "resolveWorkflow",
      "resumeThread",
      "retryDelayMs",
      "runWorker",
      "startThread",
      "stepThread",
      "stepUntilDone",
      "stopReplacedAgent",
      "waitForThreads",
      "withThreadLease",
      "workClaimedThread",
    ]);
  });

  it("exports error classes that each declare their code", () => {
    const errors = Object.entries(engine).filter(([name]) => name.endsWith("Error") && name !== "asEnvironmentError");
    for (const [name, value] of errors) {
      if (name === "EnvironmentError") continue; // its code is the machine's refusal, chosen per error
      expect(typeof (value as { code?: unknown }).code).toBe("string");
    }
  });
});
