import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Store } from "@uwf/cas";
import {
  type Address,
  normalizeAddress,
  type WorkflowNode,
  type WorkflowProblem,
  workflowNodeSchema,
} from "@uwf/protocol";
import { loadWorkflowFileOnDemand, type ParsedWorkflow } from "@uwf/workflow";
import { NotAWorkflowError } from "../errors/not-a-workflow-error.ts";
import { WorkflowNotFoundError } from "../errors/workflow-not-found-error.ts";

export interface ResolvedWorkflow {
  address: Address;
  workflow: WorkflowNode;
  /** The file it was loaded from, when it came from one. */
  file: string | null;
}

export interface ResolveWorkflowOptions {
  store: Store;
  reference: string;
  cwd: string;
  home: string;
  now(): Date;
  /**
   * Point the file's name at the version read from a file (the default), or only store it, for a caller that
   * registers it once its own checks pass (`fork --workflow` refused changes no registry entry).
   */
  register?: boolean;
}

/**
 * A workflow by file path, registered name, project file (`.uwf/workflows/NAME.yaml`) or node address.
 * Files are registered on the fly, so threads always point at a stored version.
 */
export async function resolveWorkflow(options: ResolveWorkflowOptions): Promise<ResolvedWorkflow> {
  const { store, reference, cwd } = options;
  const file = findWorkflowFile(options);
  if (file !== null && options.register === false) {
    const { workflow } = await loadWorkflowFileOnDemand(file);
    return { address: await store.objects.put(workflow, { durable: true }), workflow, file };
  }
  if (file !== null) return registerWorkflowFile({ ...options, file });
  const entry = await store.refs.getWorkflow(reference);
  if (entry !== null)
    return { address: entry.address, workflow: await readWorkflowNode(store, entry.address), file: null };
  const address = normalizeAddress(reference);
  if (address !== null && (await store.objects.has(address))) {
    return { address, workflow: await readWorkflowNode(store, address), file: null };
  }
  throw new WorkflowNotFoundError(reference, { cwd });
}

export interface RegisterWorkflowFileOptions {
  store: Store;
  file: string;
  now(): Date;
  /** The workflow already read and checked (from stdin): `file` only names it then. */
  parsed?: ParsedWorkflow;
}

/** Stores the file's normalised workflow and points its name at it; an unchanged file is a no-op. */
export async function registerWorkflowFile({
  store,
  file,
  now,
  parsed,
}: RegisterWorkflowFileOptions): Promise<ResolvedWorkflow & { changed: boolean; warnings: WorkflowProblem[] }> {
  const { workflow, warnings } = parsed ?? (await loadWorkflowFileOnDemand(file));
  const address = await store.objects.put(workflow, { durable: true });
  const current = await store.refs.getWorkflow(workflow.name);
  const changed = current?.address !== address;
  if (changed) await store.refs.setWorkflow({ name: workflow.name, address, updatedAt: now().toISOString() });
  return { address, workflow, file, changed, warnings };
}

async function readWorkflowNode(store: Store, address: Address): Promise<WorkflowNode> {
  const node = await store.objects.get(address);
  const parsed = workflowNodeSchema.safeParse(node);
  if (!parsed.success) throw new NotAWorkflowError(address);
  return parsed.data;
}

/** The workflow file a reference names (a path, or the home's `workflows/NAME.yaml`); null when it names none. */
export function findWorkflowFile({
  reference,
  cwd,
  home,
}: Pick<ResolveWorkflowOptions, "reference" | "cwd" | "home">): string | null {
  const looksLikeFile = /\.(ya?ml)$/i.test(reference) || reference.includes("/");
  if (looksLikeFile) {
    const path = resolve(cwd, reference);
    if (existsSync(path)) return path;
    throw new WorkflowNotFoundError(reference, { file: path });
  }
  for (const extension of [".yaml", ".yml"]) {
    const projectFile = join(home, "workflows", `${reference}${extension}`);
    if (existsSync(projectFile)) return projectFile;
  }
  return null;
}
