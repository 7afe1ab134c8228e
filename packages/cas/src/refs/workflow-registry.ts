import type { WorkflowEntry } from "@uwf/protocol";

/** The workflow registry: a name → address entry per registered workflow. */
export interface WorkflowRegistry {
  getWorkflow(name: string): Promise<WorkflowEntry | null>;
  setWorkflow(entry: WorkflowEntry): Promise<void>;
  listWorkflows(): Promise<WorkflowEntry[]>;
}
