import { isObject, type JsonSchemaObject, type WorkflowNode } from "@uwf/protocol";
import { restoreFieldOrder } from "./field-order.ts";
import { ASK_KEYWORD, CONVENTION_KEYWORD, REASON_FIELD, STATUS_FIELD, SUSPEND_STATUS } from "./status-fields.ts";
import { isTimeoutEdge } from "./timeout-edge.ts";

/**
 * The `$status` values a role's outgoing map-form edges answer, and whether one of them must be given.
 * `$timeout` edges are left out: uwf records that status when a suspension's wait runs out, no reply sends it.
 */
export interface RoleStatuses {
  values: string[];
  /** True when every outgoing edge tests `$status`: without one, no edge could hold. */
  required: boolean;
}

export function listRoleStatuses(workflow: WorkflowNode, roleName: string): RoleStatuses {
  const transitions = (workflow.graph[roleName] ?? []).filter((transition) => !isTimeoutEdge(transition));
  const values = [
    ...new Set(transitions.flatMap((transition) => (transition.status === null ? [] : [transition.status]))),
  ];
  const required = values.length > 0 && transitions.every((transition) => transition.status !== null);
  return { values, required };
}

/**
 * The schema a role's reply is checked against: its `frontmatter` plus
 * `$status` and `reason`. When the role's edges all route on `$status`, the
 * field becomes required and limited to those values (and `$SUSPEND`), so a
 * reply no edge could follow is sent back to the agent with a precise problem.
 * A role with `ask:` carries it under ASK_KEYWORD: what a suspending reply is checked against.
 */
export function buildReplySchema(workflow: WorkflowNode, roleName: string): JsonSchemaObject {
  const schema = buildFieldsSchema(workflow, roleName);
  const ask = workflow.roles[roleName]?.ask;
  return ask === undefined ? schema : { ...schema, [ASK_KEYWORD]: restoreFieldOrder(ask) };
}

function buildFieldsSchema(workflow: WorkflowNode, roleName: string): JsonSchemaObject {
  const frontmatter = workflow.roles[roleName]?.frontmatter;
  // In the author's field order: the prompt, examples and problems list fields as they were written.
  const schema = frontmatter === undefined ? { type: "object" } : restoreFieldOrder(frontmatter);
  const statuses = listRoleStatuses(workflow, roleName);
  if (!statuses.required) return withStatusFields(schema, statuses.values);
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const withStatus = withStatusFields(schema, statuses.values, true);
  return { ...withStatus, required: [...new Set([...required, STATUS_FIELD])] };
}

/**
 * Adds `$status` (always allowed, a string) and `reason` (the `$SUSPEND`
 * explanation) to a schema's `properties` unless the role declares them itself.
 * With `restrict`, `$status` only accepts `values` and `$SUSPEND`.
 */
export function withStatusFields(schema: JsonSchemaObject, values: string[] = [], restrict = false): JsonSchemaObject {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const added: Record<string, unknown> = { ...properties };
  if (!(STATUS_FIELD in properties)) {
    const status: Record<string, unknown> = {
      type: "string",
      [CONVENTION_KEYWORD]: true,
      description: `A status word the workflow routes on, or ${SUSPEND_STATUS} to pause and ask a human (then give "${REASON_FIELD}").`,
    };
    if (restrict) status.enum = [...values, SUSPEND_STATUS];
    else if (values.length > 0) status.examples = values;
    added[STATUS_FIELD] = status;
  }
  if (!(REASON_FIELD in properties)) {
    added[REASON_FIELD] = {
      type: "string",
      [CONVENTION_KEYWORD]: true,
      description: `Only with $status: ${SUSPEND_STATUS}: why you stop and what you need to continue.`,
    };
  }
  return { ...schema, properties: added };
}
