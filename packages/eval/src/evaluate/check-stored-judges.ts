import type { Store } from "@uwf/cas";
import { resolveStoredWorkflow, WorkflowNotFoundError } from "@uwf/engine";
import type { EvalAssertion } from "@uwf/protocol";
import { InvalidAssertionError } from "../errors/invalid-assertion-error.ts";
import { notAStoredWorkflowProblem } from "../suite/load-suite.ts";

export interface StoredWorkflowOptions {
  store: Store;
  home: string;
}

/** Whether the store names this workflow as a request may (resolveStoredWorkflow): never a file outside the home. */
export async function isStoredWorkflow(options: StoredWorkflowOptions, reference: string): Promise<boolean> {
  if (/\/|\.ya?ml$/i.test(reference)) return false;
  try {
    await resolveStoredWorkflow({ store: options.store, reference, home: options.home });
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/**
 * For assertions from a request (`uwf mcp`): every judge names a stored workflow, before anything runs;
 * a path and a name the store lacks are refused alike, so the caller learns nothing of the files there are.
 */
export async function checkStoredJudges(
  assertions: readonly EvalAssertion[],
  options: StoredWorkflowOptions,
): Promise<void> {
  for (const assertion of assertions) {
    if (assertion.kind !== "judge" || (await isStoredWorkflow(options, assertion.workflow))) continue;
    throw new InvalidAssertionError({
      assertion: assertion.name,
      field: "judge",
      problem: notAStoredWorkflowProblem(assertion.workflow),
    });
  }
}
