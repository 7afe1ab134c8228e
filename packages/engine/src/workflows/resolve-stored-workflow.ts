import { existsSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { addressOfNode, type Store } from "@uwf/cas";
import { type Address, normalizeAddress, workflowNodeSchema } from "@uwf/protocol";
import { loadWorkflowFile } from "@uwf/workflow";
import { NotAWorkflowError } from "../errors/not-a-workflow-error.ts";
import { WorkflowNotFoundError } from "../errors/workflow-not-found-error.ts";
import type { ResolvedWorkflow } from "./resolve-workflow.ts";

export interface ResolveStoredWorkflowOptions {
  store: Store;
  reference: string;
  /** The uwf home, whose `workflows/NAME.yaml` files are named by NAME. */
  home: string;
}

/** A name as it may stand for a project file: no path, no `..`, no hidden file. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** A thread id: 26 Crockford base32 characters (a ULID). */
const THREAD_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;

/**
 * A workflow as a request from elsewhere (the web API, `uwf mcp --read-only`) may name one: a registered
 * name, a stored workflow's address, a stored thread's id (the version it runs), or the name of a file in
 * the home's own `workflows/` folder (read, never registered, and refused when a link leads out of the
 * folder). Never a path: whatever else it is, the answer is the same "no workflow", so a request cannot
 * learn which files exist or read one.
 */
export async function resolveStoredWorkflow(options: ResolveStoredWorkflowOptions): Promise<ResolvedWorkflow> {
  const { store, reference } = options;
  const notFound = () => new WorkflowNotFoundError(reference, { stored: true });
  const entry = await store.refs.getWorkflow(reference);
  if (entry !== null)
    return { address: entry.address, workflow: await readStoredWorkflow(store, entry.address), file: null };
  const address = normalizeAddress(reference);
  if (address !== null && (await store.objects.has(address))) {
    return { address, workflow: await readStoredWorkflow(store, address), file: null };
  }
  if (THREAD_ID.test(reference)) {
    const thread = await store.refs.getThread(reference.toUpperCase());
    if (thread !== null) {
      return {
        address: thread.workflowAddress,
        workflow: await readStoredWorkflow(store, thread.workflowAddress),
        file: null,
      };
    }
  }
  const file = projectWorkflowFile(options.home, reference);
  if (file === null) throw notFound();
  const { workflow } = loadWorkflowFile(file);
  return { address: addressOfNode(workflow), workflow, file };
}

/** The home's `workflows/NAME.yaml` (or `.yml`) when it is there and truly inside that folder; else null. */
function projectWorkflowFile(home: string, name: string): string | null {
  if (!PLAIN_NAME.test(name) || name.includes("..")) return null;
  const folder = join(home, "workflows");
  for (const extension of [".yaml", ".yml"]) {
    const candidate = join(folder, `${name}${extension}`);
    if (!existsSync(candidate)) continue;
    try {
      const real = realpathSync(candidate);
      if (real.startsWith(`${realpathSync(folder)}${sep}`)) return candidate;
    } catch {
      // Gone or unreadable meanwhile: the same answer as no file.
    }
    return null;
  }
  return null;
}

async function readStoredWorkflow(store: Store, address: Address) {
  const parsed = workflowNodeSchema.safeParse(await store.objects.get(address));
  if (!parsed.success) throw new NotAWorkflowError(address);
  return parsed.data;
}
