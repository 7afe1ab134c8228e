import { addressOfNode, type Store } from "@uwf/cas";
import { type Address, normalizeAddress, type WorkflowNode, workflowNodeSchema } from "@uwf/protocol";
import { type CompiledWorkflow, compileWorkflow, loadWorkflowFile } from "@uwf/workflow";
import { NotAWorkflowError } from "../errors/not-a-workflow-error.ts";
import { WorkflowNotFoundError } from "../errors/workflow-not-found-error.ts";
import { findWorkflowFile } from "../workflows/resolve-workflow.ts";

/** The workflow a replay routes through: read and compiled, never stored. */
export interface ReplayWorkflow {
  name: string;
  /** The address it would have in the store (a file's is computed, not written). */
  address: Address;
  /** The file it was read from, when it came from one. */
  file: string | null;
  workflow: WorkflowNode;
  compiled: CompiledWorkflow;
}

export interface LoadReplayWorkflowOptions {
  store: Store;
  /** A file path, a registered name, a project workflow (`workflows/NAME.yaml` in the home) or a workflow address. */
  reference: string;
  cwd: string;
  home: string;
}

/**
 * The workflow to replay through, found as `start` finds one (resolveWorkflow) but without registering
 * a file: a replay writes nothing. A file is validated as `workflow validate` does (InvalidWorkflowError,
 * with each problem's file and line).
 */
export async function loadReplayWorkflow(options: LoadReplayWorkflowOptions): Promise<ReplayWorkflow> {
  const { store, reference } = options;
  const file = findWorkflowFile(options);
  if (file !== null) return compiled(loadWorkflowFile(file).workflow, file);
  const entry = await store.refs.getWorkflow(reference);
  const address = entry?.address ?? normalizeAddress(reference);
  if (address === null || !(await store.objects.has(address))) {
    throw new WorkflowNotFoundError(reference, { cwd: options.cwd });
  }
  return loadStoredReplayWorkflow(store, address);
}

/** A stored workflow node to replay through (NotAWorkflowError when the node is no workflow). */
export async function loadStoredReplayWorkflow(
  store: Pick<Store, "objects">,
  address: Address,
): Promise<ReplayWorkflow> {
  const parsed = workflowNodeSchema.safeParse(await store.objects.get(address));
  if (!parsed.success) throw new NotAWorkflowError(address);
  return compiled(parsed.data, null);
}

function compiled(workflow: WorkflowNode, file: string | null): ReplayWorkflow {
  return {
    name: workflow.name,
    address: addressOfNode(workflow),
    file,
    workflow,
    compiled: compileWorkflow(workflow),
  };
}
