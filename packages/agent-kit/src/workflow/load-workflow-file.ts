import { readFileSync, statSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import { messageOf, type SafeResult } from "@uwf/protocol";
import { createFolderIncludeReader } from "./folder-include-reader.ts";
import { InvalidWorkflowError } from "./invalid-workflow-error.ts";
import { type ParsedWorkflow, parseWorkflowSource } from "./parse-workflow-source.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

/**
 * Reads and validates a workflow file: a `name` that differs from the file name stem is a
 * warning (the workflow keeps the name it declares), and `!include` reads only from the file's folder. Throws `InvalidWorkflowError` listing
 * every problem; a missing file is reported the same way, as one problem.
 */
export function loadWorkflowFile(path: string): ParsedWorkflow {
  const fileProblem = (message: string) =>
    new InvalidWorkflowError(path, [{ file: path, line: null, column: null, path: "", message }]);
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw fileProblem("not a file");
    size = stats.size;
  } catch (error) {
    if (error instanceof InvalidWorkflowError) throw error;
    throw fileProblem(`cannot read the file: ${messageOf(error)}`);
  }
  // Checked before reading, so a huge file is never loaded into memory.
  if (size > MAX_WORKFLOW_BYTES) {
    throw fileProblem(`the file is ${size} bytes; a workflow may be at most ${MAX_WORKFLOW_BYTES} bytes (1 MiB)`);
  }
  return parseWorkflowSource(readFileSync(path, "utf8"), {
    file: path,
    readInclude: createFolderIncludeReader(dirname(path)),
    expectedName: basename(path, extname(path)),
  });
}

/** `loadWorkflowFile` without throwing for an invalid or unreadable file. */
export function safeLoadWorkflowFile(path: string): SafeResult<ParsedWorkflow, InvalidWorkflowError> {
  try {
    return { success: true, value: loadWorkflowFile(path) };
  } catch (error) {
    if (error instanceof InvalidWorkflowError) return { success: false, error };
    throw error;
  }
}
