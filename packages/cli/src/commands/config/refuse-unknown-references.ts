import { findConfigReferenceProblems } from "@uwf/agent-kit";
import { UsageError } from "../../errors/usage-error.ts";
import type { EditConfigOptions } from "./config-values.ts";

/**
 * The check `config set` and `config unset` pass to the edit: an edit that makes a setting name an
 * agent, model or provider the config does not define is refused (exit 2) with the known ones, before
 * anything is written. Problems the file already had are left alone: they are not this edit's doing.
 */
export function refuseUnknownReferences(command: string): NonNullable<EditConfigOptions["check"]> {
  return (next, previous) => {
    const before = new Set(
      findConfigReferenceProblems(previous).map((problem) => `${problem.key}\n${problem.message}`),
    );
    const added = findConfigReferenceProblems(next).find(
      (problem) => !before.has(`${problem.key}\n${problem.message}`),
    );
    if (added !== undefined) {
      throw new UsageError(`${command}: ${added.key}: ${added.message}`, { key: added.key });
    }
  };
}
