import { basename, dirname, extname } from "node:path";
import type { SafeResult } from "@uwf/protocol";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { safeReadBoundedFile } from "../files/read-bounded-file.ts";
import { createFolderIncludeReader } from "./folder-include-reader.ts";
import { type ParsedWorkflow, parseWorkflowSource } from "./parse-workflow-source.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

/**
 * Reads and validates a workflow file: a `name` that differs from the file name stem is a
 * warning (the workflow keeps the name it declares), and `!include` reads only from the file's folder. Throws `InvalidWorkflowError` listing
 * every problem; a missing file is reported the same way, as one problem.
 */
export function loadWorkflowFile(path: string): ParsedWorkflow {
  // Checked before reading, so a huge file or a device is never loaded into memory.
  const read = safeReadBoundedFile(path, { maxBytes: MAX_WORKFLOW_BYTES });
  if (!read.success) {
    const message =
      read.reason === "missing" || read.reason === "unreadable"
        ? `cannot read the file: ${read.problem}`
        : read.reason === "too-large"
          ? `the file ${read.problem} for a workflow`
          : read.problem;
    throw new InvalidWorkflowError(path, [{ file: path, line: null, column: null, path: "", message }]);
  }
  return parseWorkflowSource(read.value, {
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
