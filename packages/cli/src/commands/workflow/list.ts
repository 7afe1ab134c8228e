import { readdirSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { CorruptNodeError, NodeNotFoundError, type Store } from "@uwf/cas";
import type { WorkflowEntry, WorkflowListResult } from "@uwf/protocol";
import { safeLoadWorkflowFile } from "@uwf/workflow";
import { formatTable } from "../../format/table/format-table.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

/** How many of the newest threads `--threads` looks at for the workflow versions they run. */
export const THREAD_WORKFLOWS_SCANNED = 1000;

/**
 * Registered workflows, then the project's `.uwf/workflows/*.yaml` not registered under the same name;
 * with `threads`, then the versions the newest threads run that no registered name points at.
 */
export async function workflowListCommand(options: { threads?: boolean }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const entries = await store.refs.listWorkflows();
  const workflows: WorkflowListResult["workflows"] = [];
  for (const entry of entries) {
    const node = await readRegisteredNode(store, entry, context);
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
    // A request from elsewhere (the web API, `uwf mcp`) reads no file a link leads to out of the folder.
    if (context.storedWorkflowsOnly === true && !isInside(folder, file)) continue;
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
  if (options.threads === true) {
    const listed = await store.refs.listThreads({ limit: THREAD_WORKFLOWS_SCANNED, offset: 0 });
    const known = new Set(workflows.flatMap((workflow) => (workflow.hash === null ? [] : [workflow.hash])));
    for (const thread of listed.threads) {
      if (known.has(thread.workflowAddress)) continue;
      known.add(thread.workflowAddress);
      const entry = { name: thread.workflow, address: thread.workflowAddress, updatedAt: thread.updatedAt };
      const node = await readRegisteredNode(store, entry, context);
      workflows.push({
        name: thread.workflow,
        hash: thread.workflowAddress,
        source: "thread",
        file: null,
        description: node?.description ?? null,
      });
    }
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

/**
 * A registered workflow's node, for its description. One that is missing or corrupt is still
 * listed, with a warning, as `uwf list` lists a thread whose head is; any other error is thrown.
 */
async function readRegisteredNode(
  store: Store,
  entry: WorkflowEntry,
  context: CommandContext,
): Promise<{ description?: string } | null> {
  try {
    return (await store.objects.get(entry.address)) as { description?: string } | null;
  } catch (error) {
    if (!(error instanceof NodeNotFoundError || error instanceof CorruptNodeError)) throw error;
    context.warn(`workflow ${entry.name}: ${error.message} (see \`uwf cas verify\`)`);
    return null;
  }
}

/** The folder's entries; none when it does not exist. */
function safeReaddir(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

/** Whether `file`, links followed, is truly inside `folder`; false when it cannot be told. */
function isInside(folder: string, file: string): boolean {
  try {
    return realpathSync(file).startsWith(`${realpathSync(folder)}${sep}`);
  } catch {
    return false;
  }
}
