import type { SafeResult, WorkflowNode, WorkflowProblem } from "@uwf/protocol";
import type { YAMLError } from "yaml";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { type FieldPath, formatFieldPath, isFieldPathPrefix } from "../issue/field-path.ts";
import { checkWorkflowFile } from "../validate/check-workflow-file.ts";
import { describeYamlError, tooDeepMessage } from "../yaml/describe-yaml-error.ts";
import { yamlToValue } from "../yaml/yaml-to-value.ts";
import { fieldPathAt, locateField } from "./locate-field.ts";
import { parseWorkflowYaml, type ReadInclude } from "./parse-workflow-yaml.ts";
import { MAX_EXPANDED_WORKFLOW_SIZE, MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

export interface ParseWorkflowSourceOptions {
  /** How problems name the file. */
  file: string;
  /** Reads `!include` targets; without it an `!include` is an error. */
  readInclude?: ReadInclude;
  /** When loaded from a file: its name stem; a `name` that differs is a warning. */
  expectedName?: string;
}

export interface ParsedWorkflow {
  workflow: WorkflowNode;
  warnings: WorkflowProblem[];
}

/** YAML errors after which the document is still what the author wrote, so the other checks can run. */
const RECOVERABLE_YAML_ERRORS = new Set(["DUPLICATE_KEY", "TAG_RESOLVE_FAILED"]);

/** Parses and validates workflow YAML; throws `InvalidWorkflowError` with every problem found. */
export function parseWorkflowSource(text: string, options: ParseWorkflowSourceOptions): ParsedWorkflow {
  const { file } = options;
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_WORKFLOW_BYTES) {
    const message = `the file is ${size} bytes; a workflow may be at most ${MAX_WORKFLOW_BYTES} bytes (1 MiB)`;
    throw new InvalidWorkflowError(file, [{ file, line: null, column: null, path: "", message }]);
  }
  const { document, lineCounter, includeLimit } = parseWorkflowYaml(text, options.readInclude);
  const errors: WorkflowProblem[] = [];
  const warnings: WorkflowProblem[] = [];
  const at = (offset: number, path: FieldPath, message: string): WorkflowProblem => {
    const position = lineCounter.linePos(offset);
    return { file, line: position.line, column: position.col, path: formatFieldPath(path), message };
  };
  // A limit broken is the one problem reported: the rest of the document is not what it seems,
  // and a field path inside a document nested thousands deep would be thousands of characters long.
  const refuse = (offset: number | null, message: string, path: FieldPath = []): never => {
    const problem = offset === null ? { file, line: null, column: null, path: "", message } : at(offset, path, message);
    throw new InvalidWorkflowError(file, [problem]);
  };
  const overflow = document.errors.find((error) => describeYamlError(error) === tooDeepMessage());
  if (overflow !== undefined) refuse(overflow.pos[0], tooDeepMessage());
  const converted = yamlToValue(document, { maxSize: MAX_EXPANDED_WORKFLOW_SIZE });
  if (!converted.success && converted.reason === "too-deep") refuse(converted.offset, converted.problem);
  if (includeLimit !== null) {
    // Within the nesting limit now, so the include's field path is short.
    const limited = document.errors.find((error) => error.message.includes(includeLimit));
    const offset = limited?.pos[0] ?? null;
    refuse(offset, limited?.message ?? includeLimit, offset === null ? [] : fieldPathAt(document, offset));
  }

  const yamlErrorPaths: FieldPath[] = [];
  const yamlProblem = (error: YAMLError) => {
    const path = fieldPathAt(document, error.pos[0]);
    yamlErrorPaths.push(path);
    return at(error.pos[0], path, describe(error, path));
  };

  for (const error of document.errors) errors.push(yamlProblem(error));
  // yaml only warns about a tag it cannot resolve; an unknown tag in a workflow is a mistake.
  for (const warning of document.warnings) {
    (warning.code === "TAG_RESOLVE_FAILED" ? errors : warnings).push(yamlProblem(warning));
  }
  if (document.errors.some((error) => !RECOVERABLE_YAML_ERRORS.has(error.code))) {
    throw new InvalidWorkflowError(file, sortProblems(errors), sortProblems(warnings));
  }

  if (!converted.success) {
    const message =
      converted.reason === "too-large"
        ? `the workflow with its includes and aliases expanded is over ${MAX_EXPANDED_WORKFLOW_SIZE} characters (8 MiB) of JSON`
        : converted.problem;
    throw new InvalidWorkflowError(file, [...errors, { file, line: null, column: null, path: "", message }], warnings);
  }
  const raw = converted.value;

  const check = checkWorkflowFile(
    raw,
    options.expectedName === undefined ? {} : { expectedName: options.expectedName },
  );
  for (const issue of check.issues) {
    // A failed !include leaves null behind; "expected a string, got null" would only repeat it.
    if (yamlErrorPaths.some((path) => path.length > 0 && isFieldPathPrefix(path, issue.path))) continue;
    const location = locateField(document, lineCounter, issue.path, issue.pointAt ?? "value");
    const problem: WorkflowProblem = {
      file,
      line: location?.line ?? null,
      column: location?.column ?? null,
      path: formatFieldPath(issue.path),
      message: issue.message,
    };
    (issue.severity === "error" ? errors : warnings).push(problem);
  }
  if (check.workflow === null || errors.length > 0) {
    throw new InvalidWorkflowError(file, sortProblems(errors), sortProblems(warnings));
  }
  return { workflow: check.workflow, warnings: sortProblems(warnings) };
}

/** `parseWorkflowSource` without throwing: the workflow, or the `InvalidWorkflowError` listing every problem. */
export function safeParseWorkflowSource(
  text: string,
  options: ParseWorkflowSourceOptions,
): SafeResult<ParsedWorkflow, InvalidWorkflowError> {
  try {
    return { success: true, value: parseWorkflowSource(text, options) };
  } catch (error) {
    if (error instanceof InvalidWorkflowError) return { success: false, error };
    throw error;
  }
}

function describe(error: YAMLError, path: FieldPath): string {
  if (error.code === "DUPLICATE_KEY" && path.length > 0) return `duplicate key "${path.at(-1)}"`;
  return describeYamlError(error);
}

/** Source order, then the file-wide problems (no line) first; `sort` is stable, so ties keep check order. */
function sortProblems(problems: WorkflowProblem[]): WorkflowProblem[] {
  return [...problems].sort(
    (left, right) => (left.line ?? 0) - (right.line ?? 0) || (left.column ?? 0) - (right.column ?? 0),
  );
}
