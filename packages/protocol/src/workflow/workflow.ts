import { z } from "zod";
import { budgetInputSchema } from "../budget/budget.ts";
import { agentSpecSchema } from "../config/agent-spec.ts";
import { nodeSchema } from "../json/node-schema.ts";
import { durationSchema } from "../time/duration.ts";
import { answerInputSchema } from "./answer-schema.ts";
import { type FanOut, fanOutInputFields, fanOutSchema } from "./fan-out.ts";
import { NAME_PATTERN } from "./graph-names.ts";
import { onTimeoutSchema, roleRetriesSchema, roleTimeoutSchema } from "./role-policies.ts";
import { workflowScheduleSchema } from "./workflow-schedule.ts";

export const nameSchema = z.string().regex(NAME_PATTERN, "expected a name of letters, digits, '_' and '-'");

/** A JSON Schema object; checked as a schema by the loader, not here. */
export const jsonSchemaObjectSchema = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof jsonSchemaObjectSchema>;

export const roleSchema = z
  .object({
    description: z.string().optional(),
    goal: z.string().min(1, "a role needs a goal"),
    capabilities: z.array(z.string()).optional(),
    procedure: z.string().optional(),
    output: z.string().optional(),
    frontmatter: jsonSchemaObjectSchema.optional(),
    /** The agent that plays this role unless config or `--agent` says otherwise: an alias or an inline spec. */
    agent: z.union([z.string().min(1), agentSpecSchema]).optional(),
    /** JSON Schema of what the role sends when it suspends (`$status: $SUSPEND`): its question, options. */
    ask: jsonSchemaObjectSchema.optional(),
    /** JSON Schema of the answer `uwf resume --answer` must give, or `approval` (see answer-schema.ts). */
    answer: answerInputSchema.optional(),
    /** How long a suspension of this role waits for its answer before the `$timeout` edge (or `suspend-timeout`). */
    suspendTimeout: durationSchema.optional(),
    /** This role's agent deadline: beats the agent's config, beaten by `--timeout`. */
    timeout: roleTimeoutSchema.optional(),
    /** This role's retry policy: beats config and a worker's `--retries`. */
    retries: roleRetriesSchema.optional(),
    /** When the agent runs out of time: `fail` (default) or `suspend` for a person to decide. */
    onTimeout: onTimeoutSchema.optional(),
  })
  .strict();
export type Role = z.infer<typeof roleSchema>;

export const conditionSchema = z
  .object({
    description: z.string().optional(),
    expression: z.string().min(1, "a condition needs an expression"),
  })
  .strict();
export type Condition = z.infer<typeof conditionSchema>;

/**
 * One edge in the normalised graph. `condition` names an entry of `conditions`;
 * `status` matches the previous step's `$status` (at `$START`: `new` or `resume`).
 * Both null: the edge always holds. On a fan-out edge (`fanOut` set) `role` and `prompt` are the
 * join's: the branches run first, then the join role with that prompt.
 */
export const transitionSchema = z
  .object({
    role: z.string(),
    condition: z.string().nullable(),
    status: z.string().nullable(),
    prompt: z.string(),
    /** Set only on a fan-out edge, so every other edge (and its workflow's address) is as it was. */
    fanOut: fanOutSchema.optional(),
  })
  .strict();
export type Transition = z.infer<typeof transitionSchema>;

/** The stored, normalised workflow: both edge forms of a file load to this one shape. */
export const workflowNodeSchema = nodeSchema("workflow/1", {
  name: nameSchema,
  description: z.string().optional(),
  /** JSON Schema of the values a thread is started with (`uwf start --input KEY=VALUE`). */
  inputs: jsonSchemaObjectSchema.optional(),
  /** The limits of every thread of this workflow, as written (`max_steps`, ...); flags beat them, they beat config. */
  budget: budgetInputSchema.optional(),
  /** When to start threads of this workflow unattended; `uwf workflow add` registers it as a schedule. */
  schedule: workflowScheduleSchema.optional(),
  roles: z.record(z.string(), roleSchema),
  conditions: z.record(z.string(), conditionSchema),
  graph: z.record(z.string(), z.array(transitionSchema)),
});
export type WorkflowNode = z.infer<typeof workflowNodeSchema>;

/**
 * An edge as written in the list form: to a `role`, or a fan-out (`parallel:` or `foreach:` with
 * `join:`, see fan-out.ts); which of them is set, and that it is whole, is checked by the workflow
 * package's validation, with the file position.
 */
export const transitionInputSchema = z
  .object({
    role: z.string().optional(),
    condition: z.string().nullable().optional(),
    status: z.string().optional(),
    prompt: z.string().optional(),
    ...fanOutInputFields,
  })
  .strict();
export type TransitionInput = z.infer<typeof transitionInputSchema>;

/** An edge as written in the map form: the key is the `$status` value it answers. */
export const statusTargetInputSchema = z
  .object({
    role: z.string().optional(),
    prompt: z.string().optional(),
    ...fanOutInputFields,
  })
  .strict();
export type StatusTargetInput = z.infer<typeof statusTargetInputSchema>;

/** A node's edges: an ordered list, or a map from `$status` value to target. */
export const edgesInputSchema = z.union([
  z.array(transitionInputSchema),
  z.record(z.string(), statusTargetInputSchema),
]);
export type EdgesInput = z.infer<typeof edgesInputSchema>;

/** The workflow file as written. `version` and `x-` keys are accepted and dropped. */
export const workflowFileSchema = z
  .object({
    name: nameSchema,
    description: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    inputs: jsonSchemaObjectSchema.optional(),
    budget: budgetInputSchema.optional(),
    schedule: workflowScheduleSchema.optional(),
    roles: z.record(z.string(), roleSchema),
    conditions: z.record(z.string(), conditionSchema).optional(),
    graph: z.record(z.string(), edgesInputSchema),
  })
  .catchall(z.unknown())
  .superRefine((file, context) => {
    for (const key of Object.keys(file)) {
      if (!KNOWN_FILE_KEYS.has(key) && !key.startsWith("x-")) {
        context.addIssue({
          code: "custom",
          path: [key],
          message: `unknown key "${key}" (extension keys start with "x-")`,
        });
      }
    }
  });
export type WorkflowFile = z.infer<typeof workflowFileSchema>;

const KNOWN_FILE_KEYS = new Set([
  "name",
  "description",
  "version",
  "inputs",
  "budget",
  "schedule",
  "roles",
  "conditions",
  "graph",
]);

/** Both edge forms into one ordered transition list; the map keeps its key order. */
export function normalizeEdges(edges: EdgesInput): Transition[] {
  if (Array.isArray(edges)) {
    return edges.map((edge) => normalizeTarget(edge, edge.condition ?? null, edge.status ?? null));
  }
  return Object.entries(edges).map(([status, target]) => normalizeTarget(target, null, status));
}

function normalizeTarget(
  target: TransitionInput | StatusTargetInput,
  condition: string | null,
  status: string | null,
): Transition {
  const fanOut = normalizeFanOut(target);
  if (fanOut === null) return { role: target.role ?? "", condition, status, prompt: target.prompt ?? "" };
  return { role: target.join?.role ?? "", condition, status, prompt: target.join?.prompt ?? "", fanOut };
}

/** A fan-out edge's branches and join in their stored shape; null for an edge to a role. Defaults: policy `all`, `onCancel: cancel`. */
function normalizeFanOut(target: TransitionInput | StatusTargetInput): FanOut | null {
  if (target.parallel === undefined && target.foreach === undefined) return null;
  return {
    parallel: target.parallel ?? null,
    ...(target.parallel === undefined ? {} : { keys: Object.keys(target.parallel) }),
    foreach:
      target.foreach === undefined
        ? null
        : { expression: target.foreach, as: target.as ?? "item", branch: target.branch ?? {} },
    policy: target.join?.policy ?? "all",
    failFast: target.join?.failFast ?? false,
    maxConcurrent: target.maxConcurrent ?? null,
    onCancel: target.onCancel ?? "cancel",
  };
}

export function normalizeWorkflowFile(file: WorkflowFile): WorkflowNode {
  const graph: Record<string, Transition[]> = {};
  for (const [from, edges] of Object.entries(file.graph)) graph[from] = normalizeEdges(edges);
  const node: WorkflowNode = {
    type: "workflow/1",
    name: file.name,
    roles: file.roles,
    conditions: file.conditions ?? {},
    graph,
  };
  if (file.description !== undefined) node.description = file.description;
  // Set only when declared, so a workflow without inputs keeps the address it always had.
  if (file.inputs !== undefined) node.inputs = file.inputs;
  if (file.budget !== undefined) node.budget = file.budget;
  if (file.schedule !== undefined) node.schedule = file.schedule;
  return node;
}
