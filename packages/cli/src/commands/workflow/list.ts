import { readdirSync } from "node:fs";
import { join } from "node:path";
import { safeLoadWorkflowFile } from "@uwf/agent-kit";
import type { WorkflowListResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { formatTable } from "../../format/format-table.ts";

/** Registered workflows, then the project's `.uwf/workflows/*.yaml` not registered under the same name. */
export async function workflowListCommand(context: CommandContext) {
  const store = await context.openStore();
  const entries = await store.refs.listWorkflows();
  const workflows: WorkflowListResult["workflows"] = [];
  for (const entry of entries) {
    const node = (await store.objects.get(entry.address).catch(() => null)) as { description?: string } | null;
    workflows.push({
      name: entry.name,
      hash: entry.address,
      source: "registry",
      file: null,
      description: node?.description ?? null,
    });
  }
  const folder = join(context.home, "workflows");
  const files = safeReaddir(folder)
    .filter((name) => /\.ya?ml$/i.test(name))
    .sort();
  for (const name of files) {
    const file = join(folder, name);
    const loaded = await safeLoadWorkflowFile(file);
    const stem = name.replace(/\.ya?ml$/i, "");
    if (workflows.some((workflow) => workflow.name === stem && workflow.source === "registry")) continue;
    if (!loaded.success) context.warn(`${file}: invalid workflow (see \`uwf workflow validate ${file}\`)`);
    workflows.push({
      name: stem,
      hash: null,
      source: "project",
      file,
      description: loaded.success ? (loaded.value.workflow.description ?? null) : null,
    });
  }
  const result: WorkflowListResult = { workflows };
  return {
    result,
    format: (value: WorkflowListResult) =>
      value.workflows.length === 0
        ? "no workflows (add one with `uwf workflow add FILE`)"
        : formatTable(
            ["NAME", "HASH", "SOURCE", "DESCRIPTION"],
            value.workflows.map((workflow) => [
              workflow.name,
              workflow.hash ?? "",
              workflow.source,
              workflow.description ?? "",
            ]),
          ),
  };
}

function safeReaddir(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
