import { existsSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { NAME_PATTERN, type WorkflowNewResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { starterScenario, starterWorkflow } from "./starter-workflow.ts";

export interface WorkflowNewCommandOptions {
  name: string;
}

/**
 * `uwf workflow new NAME`: writes NAME.yaml, a starter workflow (a model role, a shell check, a fan-out,
 * a person's approval), and NAME.scenario.yaml, which plays it offline to its end. Refuses (exit 2) when
 * either file exists, writing neither.
 */
export async function workflowNewCommand(
  options: WorkflowNewCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<WorkflowNewResult>> {
  const { name } = options;
  if (!NAME_PATTERN.test(name)) {
    throw new UsageError(
      `workflow new ${JSON.stringify(name)}: a workflow's name is letters, digits, '_' and '-' (it names the file: NAME.yaml)`,
    );
  }
  const file = join(context.cwd, `${name}.yaml`);
  const scenario = join(context.cwd, `${name}.scenario.yaml`);
  const existing = [file, scenario].filter((path) => existsSync(path));
  if (existing.length > 0) {
    const names = existing.map((path) => relative(context.cwd, path)).join(" and ");
    const verb = existing.length === 1 ? "exists" : "exist";
    throw new UsageError(`workflow new ${name}: ${names} already ${verb}; nothing was written (pick another name)`);
  }
  writeFileSync(scenario, starterScenario(name), { flag: "wx" });
  writeFileSync(file, starterWorkflow(name), { flag: "wx" });
  const run = `uwf run ${name}.yaml -p "Add a --dry-run flag" --agent scripted:${name}.scenario.yaml`;
  return {
    result: { name, file, scenario, run },
    format: (value) =>
      [
        `wrote ${name}.yaml (a model role, a shell check, a fan-out to two reviewers, a person's approval)`,
        `  and ${name}.scenario.yaml (plays it offline)`,
        `check it:        uwf workflow validate ${name}.yaml`,
        `run it offline:  ${value.run}`,
      ].join("\n"),
  };
}
