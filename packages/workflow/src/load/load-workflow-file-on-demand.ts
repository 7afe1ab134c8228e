import type { ParsedWorkflow } from "./parse-workflow-source.ts";

/**
 * `loadWorkflowFile`, with the parser and the checks it runs (a JSON Schema compiler, the cron parser)
 * loaded on first use: code that reads a workflow file only on some paths (a branch running another
 * workflow, `start FILE`) does not make every step load them (issue 43).
 */
export async function loadWorkflowFileOnDemand(path: string): Promise<ParsedWorkflow> {
  const { loadWorkflowFile } = await import("./load-workflow-file.ts");
  return loadWorkflowFile(path);
}
