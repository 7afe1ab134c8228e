import type { InvalidWorkflowError } from "@uwf/agent-kit";
import { createFolderIncludeReader, type ParsedWorkflow, safeParseWorkflowSource } from "@uwf/agent-kit";
import type { SafeResult } from "@uwf/protocol";

/** How a workflow read from stdin is named in results and problems. */
export const STDIN_WORKFLOW = "stdin";

/**
 * A workflow read from stdin (`uwf workflow validate -`, `workflow add -`), checked as a file is,
 * except that no file name is expected to match its `name`, and `!include` reads from the current
 * directory (and below), the folder it has instead of its own.
 */
export async function safeParseStdinWorkflow(cwd: string): Promise<SafeResult<ParsedWorkflow, InvalidWorkflowError>> {
  const text = await Bun.stdin.text();
  return safeParseWorkflowSource(text, { file: STDIN_WORKFLOW, readInclude: createFolderIncludeReader(cwd) });
}
