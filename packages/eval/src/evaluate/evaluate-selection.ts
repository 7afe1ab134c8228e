import { parseAssertionArguments } from "../assertions/parse-assertion.ts";
import type { StoredEvalReport } from "../report/resolve-eval-report.ts";
import { saveEvalReport } from "../report/save-eval-report.ts";
import { selectThreads, type ThreadSelection } from "../select/select-threads.ts";
import { checkStoredJudges } from "./check-stored-judges.ts";
import { withDefaultAssertion } from "./default-assertions.ts";
import type { EvaluateOptions } from "./evaluate-options.ts";
import { resolveAssertionPaths } from "./resolve-assertion-paths.ts";
import { scoreStoredThreads } from "./score-stored-threads.ts";

/** Scores stored threads (named, a family, or filtered) as they stand, runs nothing but judges, and stores the report. */
export async function evaluateSelection(
  options: EvaluateOptions & { selection: ThreadSelection },
): Promise<StoredEvalReport> {
  const parsed = withDefaultAssertion(parseAssertionArguments(options.assertions), options.onNote);
  if (options.workflowFiles === false) await checkStoredJudges(parsed, options);
  const assertions = resolveAssertionPaths(parsed, options.cwd);
  const { records, source } = await selectThreads(options.store.refs, options.selection);
  const targets = records.map((record) => ({ record }));
  const samples = await scoreStoredThreads(options.store, targets, assertions, options);
  const node = {
    type: "eval-report/1" as const,
    name: options.name ?? selectionLabel(options.selection),
    createdAt: options.now().toISOString(),
    source,
    assertions,
    samples,
    unstarted: [],
    gate: options.gate,
    rescoredFrom: null,
  };
  return { entry: await saveEvalReport(options.store, node, options.newId), node };
}

/** `forks of 01J9…`, `threads 01J9, 01JA`, `workflow review, status ended`: what a selection's report is called. */
function selectionLabel(selection: ThreadSelection): string {
  const parts: string[] = [];
  if (selection.forksOf !== undefined)
    parts.push(`forks of ${selection.forksOf}${selection.recursive ? " (recursive)" : ""}`);
  const threads = selection.threads ?? [];
  if (threads.length > 0)
    parts.push(
      `${threads.length === 1 ? "thread" : "threads"} ${threads.slice(0, 3).join(", ")}${threads.length > 3 ? ", …" : ""}`,
    );
  if (selection.workflow !== undefined) parts.push(`workflow ${selection.workflow}`);
  if (selection.status !== undefined) parts.push(`status ${selection.status}`);
  return parts.join(", ");
}
