import { isAbsolute, resolve } from "node:path";
import type { EvalAssertion } from "@uwf/protocol";

/**
 * Paths in assertions are read from where the assertion was written (the suite's folder, or the current
 * directory), and kept absolute in the report, so `rescore` finds them from anywhere: a command scorer
 * runs in its `cwd` (default: that folder), and a judge's workflow named by a relative file path is read
 * from there, not from where judging threads run. A registered workflow name (no `/` and no
 * `.yaml`/`.yml` ending) is left as it is.
 */
export function resolveAssertionPaths(assertions: readonly EvalAssertion[], baseDir: string): EvalAssertion[] {
  return assertions.map((assertion) => {
    if (assertion.kind === "command") return { ...assertion, cwd: resolve(baseDir, assertion.cwd ?? ".") };
    if (assertion.kind === "judge" && isFilePath(assertion.workflow) && !isAbsolute(assertion.workflow)) {
      return { ...assertion, workflow: resolve(baseDir, assertion.workflow) };
    }
    return assertion;
  });
}

function isFilePath(reference: string): boolean {
  return reference.includes("/") || /\.ya?ml$/i.test(reference);
}
