import { resolve } from "node:path";
import { addressOfNode } from "@uwf/cas";
import type { WorkflowProblem, WorkflowValidateResult } from "@uwf/protocol";
import { safeLoadWorkflowFile, safeParseWorkflowSource } from "@uwf/workflow";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { STDIN_WORKFLOW, safeParseStdinWorkflow } from "./parse-stdin-workflow.ts";

export interface WorkflowValidateCommandOptions {
  file: string;
  /**
   * Not a flag: the workflow's YAML text, as `uwf mcp` sends it; `file` then only names it in the result.
   * It is read from no file, and its `!include`s are refused (they would name files from the request).
   */
  source?: string;
}

/** Checks a file (`-`: stdin) without storing anything; every problem is reported, exit 1 when there is an error. */
export async function workflowValidateCommand(options: WorkflowValidateCommandOptions, context: CommandContext) {
  const fromStdin = options.file === "-";
  const loaded =
    options.source !== undefined
      ? safeParseWorkflowSource(options.source, { file: options.file })
      : fromStdin
        ? await safeParseStdinWorkflow(context.cwd)
        : safeLoadWorkflowFile(resolve(context.cwd, options.file));
  const file = fromStdin && options.source === undefined ? STDIN_WORKFLOW : options.file;
  const result: WorkflowValidateResult = loaded.success
    ? {
        file,
        valid: true,
        name: loaded.value.workflow.name,
        hash: addressOfNode(loaded.value.workflow),
        errors: [],
        warnings: loaded.value.warnings,
      }
    : {
        file,
        valid: false,
        name: null,
        hash: null,
        errors: loaded.error.problems,
        warnings: loaded.error.warnings,
      };
  return {
    result,
    format: formatValidation,
    exitCode: result.valid ? EXIT_OK : EXIT_FAILED,
  };
}

function formatValidation(result: WorkflowValidateResult): string {
  const lines = [
    ...result.errors.map((problem) => describe(problem, "error")),
    ...result.warnings.map((problem) => describe(problem, "warning")),
  ];
  lines.push(
    result.valid
      ? `${result.file}: valid (${result.name} ${result.hash})`
      : `${result.file}: ${result.errors.length} error(s)`,
  );
  return lines.join("\n");
}

function describe(problem: WorkflowProblem, severity: string): string {
  const where = [problem.file, problem.line, problem.column].filter((part) => part !== null).join(":");
  return `${where}: ${severity}: ${problem.path === "" ? "" : `${problem.path}: `}${problem.message}`;
}
