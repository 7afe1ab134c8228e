import type { WorkflowNode } from "@uwf/protocol";

/** What a thread did on its workflow's graph: the role it stands at, the roles it ran, the edges it took. */
export interface GraphMarks {
  /** The role the thread stands at (its next role; its last role once it ended); null: none. */
  current: string | null;
  /** Whether `current` is running now (a step-started seen, its step not yet recorded). */
  running: boolean;
  /** How many steps each role ran. */
  visits: ReadonlyMap<string, number>;
  /** How many times each edge was taken, by edge key (`edgeKey`). */
  edges: ReadonlyMap<string, number>;
}

/** An edge's key: the role it leaves and its index in that role's transitions. */
export function edgeKey(from: string, index: number): string {
  return `${from}#${index}`;
}

interface Step {
  role: string;
  status: string | null;
}

/**
 * Picks the edge a step took from `from` to `to`: the one keyed by the step's `$status`, else a
 * condition edge, else an unconditioned one, else any edge between the two.
 */
function pickEdge(workflow: WorkflowNode, from: string, to: string, status: string | null): number | null {
  const edges = (workflow.graph[from] ?? []).map((edge, index) => ({ edge, index }));
  const candidates = edges.filter(({ edge }) => edge.role === to);
  const byStatus = candidates.find(({ edge }) => edge.status !== null && edge.status === status);
  const byCondition = candidates.find(({ edge }) => edge.status === null && edge.condition !== null);
  const always = candidates.find(({ edge }) => edge.status === null && edge.condition === null);
  return (byStatus ?? byCondition ?? always ?? candidates[0])?.index ?? null;
}

/**
 * The marks of a thread on its graph from its steps (oldest first), its next role (the edge into it is
 * taken), whether it ended and the edge index its outcome names (the edge to `$END`).
 */
export function marksFromSteps(
  workflow: WorkflowNode,
  steps: readonly Step[],
  thread: { status: string; next: string | null; endEdge: number | null; running: string | null },
): GraphMarks {
  const visits = new Map<string, number>();
  const edges = new Map<string, number>();
  const take = (from: string, index: number | null) => {
    if (index === null) return;
    const key = edgeKey(from, index);
    edges.set(key, (edges.get(key) ?? 0) + 1);
  };
  let previous: Step | null = null;
  // A new thread leaves $START by its `new` edge where the graph keys them (`new`, `resume`).
  for (const step of steps) {
    visits.set(step.role, (visits.get(step.role) ?? 0) + 1);
    if (previous === null) take("$START", pickEdge(workflow, "$START", step.role, "new"));
    else take(previous.role, pickEdge(workflow, previous.role, step.role, previous.status));
    previous = step;
  }
  if (thread.status === "ended" && previous !== null) {
    take(previous.role, thread.endEdge ?? pickEdge(workflow, previous.role, "$END", previous.status));
  } else if (thread.next !== null && thread.next !== "$END" && previous?.status !== "$SUSPEND") {
    // The edge into the role it will run next was chosen when its last step was recorded (none when that
    // step suspended to ask and the same role runs again).
    if (previous === null) take("$START", pickEdge(workflow, "$START", thread.next, "new"));
    else take(previous.role, pickEdge(workflow, previous.role, thread.next, previous.status));
  }
  let current: string | null = thread.running;
  if (current === null) {
    current = thread.next !== null && thread.next !== "$END" && thread.status !== "ended" ? thread.next : null;
  }
  if (current === null && previous !== null) current = previous.role;
  return { current, running: thread.running !== null, visits, edges };
}
