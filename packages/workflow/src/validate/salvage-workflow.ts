import type { BranchTarget, FanOut, JsonSchemaObject, Role, Transition, WorkflowNode } from "@uwf/protocol";
import type { EdgePathOf } from "./edge-paths.ts";

/**
 * A best-effort workflow from a file that failed its schema, so the semantic checks can
 * still run and the author sees every problem at once. Anything malformed becomes an empty
 * placeholder; problems found inside a placeholder are dropped, as the schema already reported them.
 */
export function salvageWorkflow(raw: Record<string, unknown>): WorkflowNode {
  const roles: Record<string, Role> = {};
  for (const [name, value] of entries(raw.roles)) {
    const role: Role = { goal: isRecord(value) && typeof value.goal === "string" ? value.goal : "" };
    if (isRecord(value) && isRecord(value.frontmatter)) role.frontmatter = value.frontmatter as JsonSchemaObject;
    roles[name] = role;
  }
  const conditions: WorkflowNode["conditions"] = {};
  for (const [name, value] of entries(raw.conditions)) {
    conditions[name] = { expression: isRecord(value) && typeof value.expression === "string" ? value.expression : "" };
  }
  const graph: Record<string, Transition[]> = {};
  for (const [from, edges] of entries(raw.graph)) {
    if (Array.isArray(edges)) graph[from] = edges.map((edge) => salvageEdge(edge, null));
    else if (isRecord(edges)) graph[from] = Object.entries(edges).map(([status, edge]) => salvageEdge(edge, status));
    else graph[from] = [];
  }
  const name = typeof raw.name === "string" ? raw.name : "";
  const workflow: WorkflowNode = { type: "workflow/1", name, roles, conditions, graph };
  if (isRecord(raw.inputs)) workflow.inputs = raw.inputs as JsonSchemaObject;
  return workflow;
}

/** Where each edge sits in the file: `graph.X[2]` in the list form, `graph.X.approved` in the map form. */
export function fileEdgePathOf(raw: Record<string, unknown>): EdgePathOf {
  const graph = isRecord(raw.graph) ? raw.graph : {};
  return (from, index) => {
    const edges = graph[from];
    if (isRecord(edges) && !Array.isArray(edges)) return ["graph", from, Object.keys(edges)[index] ?? index];
    return ["graph", from, index];
  };
}

function salvageEdge(edge: unknown, status: string | null): Transition {
  const fields = isRecord(edge) ? edge : {};
  const transition: Transition = {
    role: typeof fields.role === "string" ? fields.role : "",
    condition: typeof fields.condition === "string" ? fields.condition : null,
    status: status ?? (typeof fields.status === "string" ? fields.status : null),
    prompt: typeof fields.prompt === "string" ? fields.prompt : "",
  };
  if (fields.parallel === undefined && fields.foreach === undefined) return transition;
  // A fan-out, as normalizeEdges makes it: the join's role and prompt on the edge, the rest in fanOut.
  const join = isRecord(fields.join) ? fields.join : {};
  const policy = join.policy;
  const fanOut: FanOut = {
    parallel:
      fields.parallel === undefined
        ? null
        : Object.fromEntries(entries(fields.parallel).map(([key, target]) => [key, salvageBranch(target)])),
    foreach:
      fields.foreach === undefined
        ? null
        : {
            expression: typeof fields.foreach === "string" ? fields.foreach : "",
            as: typeof fields.as === "string" ? fields.as : "item",
            branch: salvageBranch(fields.branch),
          },
    policy:
      policy === "all" || policy === "all-settled" || policy === "any"
        ? policy
        : isRecord(policy) && typeof policy.quorum === "number"
          ? { quorum: policy.quorum }
          : "all",
    failFast: join.failFast === true,
    maxConcurrent: typeof fields.maxConcurrent === "number" ? fields.maxConcurrent : null,
    onCancel: fields.onCancel === "abandon" ? "abandon" : "cancel",
  };
  return {
    ...transition,
    role: typeof join.role === "string" ? join.role : "",
    prompt: typeof join.prompt === "string" ? join.prompt : "",
    fanOut,
  };
}

function salvageBranch(value: unknown): BranchTarget {
  const fields = isRecord(value) ? value : {};
  const branch: BranchTarget = {};
  if (typeof fields.role === "string") branch.role = fields.role;
  if (typeof fields.workflow === "string") branch.workflow = fields.workflow;
  if (typeof fields.prompt === "string") branch.prompt = fields.prompt;
  if (isRecord(fields.inputs) && !Array.isArray(fields.inputs)) branch.inputs = fields.inputs;
  return branch;
}

function entries(value: unknown): [string, unknown][] {
  return isRecord(value) && !Array.isArray(value) ? Object.entries(value) : [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
