import { describe, expect, it } from "bun:test";
import * as engine from "./index.ts";

describe("the @uwf/engine entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(engine).sort()).toEqual([
      "AgentFailedError",
      "AmbiguousThreadError",
      "BrokenChainError",
      "BudgetExceededError",
      "EnvironmentError",
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
      "ThreadNotFoundError",
      "ThreadNotResumableError",
      "ThreadStrandedError",
      "ThreadSuspendedError",
      "UnexpectedNodeKindError",
      "UnroutableReplyError",
      "WorkflowNotFoundError",
      "asEnvironmentError",
      "buildFamilyTree",
      "cancelThread",
      "describeReachedLimit",
      "diffChains",
      "dropDamagedChainIndexes",
      "expandNode",
      "findChainIndexProblems",
      "followThread",
      "forkThread",
      "forkThreads",
      "formatAmount",
      "loadHistory",
      "loadStepSummaries",
      "readChain",
      "recoverThreads",
      "registerWorkflowFile",
      "resolveNodeOrThread",
      "resolveThread",
      "resolveWorkflow",
      "resumeThread",
      "startThread",
      "stepThread",
      "stepUntilDone",
      "withThreadLease",
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
