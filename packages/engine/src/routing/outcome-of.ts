import type { ThreadOutcome, WorkflowNode } from "@uwf/protocol";
import type { ModeratorDecision } from "@uwf/workflow";

/**
 * How a thread ended, for a decision that routes to `$END`: the role whose reply ended it, the reply's
 * `$status` (null when it had none, or one that is not a plain value) and the edge taken, by its index
 * among the role's edges with its condition and `$status` key (a map of edges is an ordered list whose
 * edges carry their key, see normalizeEdges).
 */
export function outcomeOf(
  workflow: WorkflowNode,
  decision: Pick<ModeratorDecision, "from" | "transition">,
  fields: Record<string, unknown>,
): ThreadOutcome {
  const { from, transition } = decision;
  const status = fields.$status;
  const plain = typeof status === "string" || typeof status === "number" || typeof status === "boolean";
  return {
    role: from,
    status: plain ? String(status) : null,
    edge: {
      index: Math.max(0, (workflow.graph[from] ?? []).indexOf(transition)),
      condition: transition.condition,
      key: transition.status,
    },
  };
}
