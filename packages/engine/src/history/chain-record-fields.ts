import type { Address, ThreadRecord, WorkflowNode } from "@uwf/protocol";
import type { ThreadChain } from "./read-chain.ts";

export interface ChainRecordFieldsInput {
  id: string;
  workflow: WorkflowNode;
  chain: ThreadChain;
  head: Address;
  /** The workflow the thread runs under when it is not its start node's (a fork onto another version). */
  workflowAddress?: Address;
}

/** The fields of a thread record that say which chain it is: its id, its workflow, its start node and its head. */
export function chainRecordFields(
  input: ChainRecordFieldsInput,
): Pick<ThreadRecord, "id" | "workflow" | "workflowAddress" | "start" | "head"> {
  return {
    id: input.id,
    workflow: input.workflow.name,
    workflowAddress: input.workflowAddress ?? input.chain.start.workflow,
    start: input.chain.startAddress,
    head: input.head,
  };
}
