import type { EvalAssertion, WorkflowProblem } from "@uwf/protocol";
import { normalizeSuiteAssertion } from "../assertions/parse-assertion.ts";
import { InvalidAssertionError } from "../errors/invalid-assertion-error.ts";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import type { Suite, SuiteAssertionItem } from "../suite/suite.ts";

/** A suite's assertions read: the suite's own, and each case's added to them, by case name. */
export interface SuiteAssertions {
  suite: EvalAssertion[];
  byCase: Map<string, EvalAssertion[]>;
}

/**
 * Reads every `assert:` item of the suite, the cases' included, before anything runs; every item that
 * is not an assertion is reported at once, each at FILE:LINE:COL with its field (`invalid-suite`).
 */
export function readSuiteAssertions(suite: Suite): SuiteAssertions {
  const problems: WorkflowProblem[] = [];
  const read = (items: readonly SuiteAssertionItem[]) =>
    items.flatMap((item) => {
      try {
        return [normalizeSuiteAssertion(item.value)];
      } catch (error) {
        if (!(error instanceof InvalidAssertionError)) throw error;
        const field = error.data.field;
        problems.push({
          file: item.file,
          line: item.line ?? 1,
          column: item.column ?? 1,
          path: field === null || field === undefined ? item.path : `${item.path}.${field}`,
          message: error.data.problem,
        });
        return [];
      }
    });
  const assertions = {
    suite: read(suite.assert),
    byCase: new Map(suite.cases.map((each) => [each.name, read(each.assert)])),
  };
  if (problems.length > 0) throw new InvalidSuiteError(suite.file, problems);
  return assertions;
}
