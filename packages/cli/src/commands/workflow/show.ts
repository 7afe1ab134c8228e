import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { addressOfNode } from "@uwf/cas";
import { resolveStoredWorkflow, resolveWorkflow } from "@uwf/engine";
import type { WorkflowNode, WorkflowShowResult } from "@uwf/protocol";
import { loadWorkflowFile, restoreWorkflowFieldOrder, workflowToMermaid } from "@uwf/workflow";
import { stringify } from "yaml";
import type { CommandContext } from "../../pipeline/command-context.ts";

/**
 * A workflow by name, hash or file (a file is shown, not registered); for a request from elsewhere
 * (`context.storedWorkflowsOnly`), only by what the store holds.
 */
export async function workflowShowCommand(options: { reference: string; mermaid?: boolean }, context: CommandContext) {
  const path = resolve(context.cwd, options.reference);
  let hash: string;
  let workflow: WorkflowNode;
  if (context.storedWorkflowsOnly === true) {
    const store = await context.openStore({ create: false });
    const resolved = await resolveStoredWorkflow({ store, reference: options.reference, home: context.home });
    workflow = resolved.workflow;
    hash = resolved.address;
  } else if (/\.(ya?ml)$/i.test(options.reference) && existsSync(path)) {
    workflow = (await loadWorkflowFile(path)).workflow;
    hash = addressOfNode(workflow);
  } else {
    const store = await context.openStore({ create: false });
    const resolved = await resolveWorkflow({
      store,
      reference: options.reference,
      cwd: context.cwd,
      home: context.home,
      now: context.now,
    });
    workflow = resolved.workflow;
    hash = resolved.address;
  }
  // Fields in the author's order: as stored (the order recorded, so it hashes to `hash`) for --json, for reading otherwise.
  const result: WorkflowShowResult = { hash, workflow: restoreWorkflowFieldOrder(workflow, { keepKeyword: true }) };
  if (options.mermaid === true) result.mermaid = workflowToMermaid(workflow);
  const readable = restoreWorkflowFieldOrder(workflow);
  return {
    result,
    format: (value: WorkflowShowResult) => value.mermaid ?? `# ${readable.name} ${value.hash}\n${stringify(readable)}`,
  };
}
