import type { SafeResult } from "@uwf/protocol";
import {
  createFolderIncludeReader,
  InvalidWorkflowError,
  type ParsedWorkflow,
  safeParseWorkflowSource,
} from "@uwf/workflow";
import { readStdin } from "../../read-input-file.ts";

/** How a workflow read from stdin is named in results and problems. */
export const STDIN_WORKFLOW = "stdin";

/**
 * A workflow read from stdin (`uwf workflow validate -`, `workflow add -`), checked as a file is,
 * except that no file name is expected to match its `name`, and `!include` reads from the current
 * directory (and below), the folder it has instead of its own.
 */
export async function safeParseStdinWorkflow(cwd: string): Promise<SafeResult<ParsedWorkflow, InvalidWorkflowError>> {
  const read = await readStdin();
  if (!read.success) {
    const problem = { file: STDIN_WORKFLOW, line: null, column: null, path: "", message: `stdin ${read.problem}` };
    return { success: false, error: new InvalidWorkflowError(STDIN_WORKFLOW, [problem]) };
  }
  return safeParseWorkflowSource(read.value, { file: STDIN_WORKFLOW, readInclude: createFolderIncludeReader(cwd) });
}
