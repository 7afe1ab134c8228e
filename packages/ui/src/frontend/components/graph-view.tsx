import { Graph, layout } from "@dagrejs/dagre";
import type { Transition, WorkflowNode } from "@uwf/protocol";
import { useMemo } from "preact/hooks";
import "./graph-view.css";
import { edgeKey, type GraphMarks } from "./graph-marks.ts";

interface LaidNode {
  id: string;
  /** The box's centre (dagre's node also holds the self-loops drawn on the box's right). */
  x: number;
  y: number;
  width: number;
  height: number;
  kind: "terminal" | "role" | "branch";
  /** The text in the box: the role's name, or a fan-out branch's key and what it runs. */
  label: string;
  goal: string | null;
}

interface LaidEdge {
  key: string;
  from: string;
  to: string;
  label: string;
  title: string;
  points: { x: number; y: number }[];
  labelAt: { x: number; y: number } | null;
  labelWidth: number;
  /** A self-loop's path, drawn by hand on the box's right (dagre routes them oddly). */
  loop: string | null;
  /** The workflow edge whose taken-count it shows: itself, or the fan-out edge it is a part of. */
  countKey: string;
  /** Part of a fan-out: into a branch, or from a branch to the join. */
  fanOut: boolean;
}

/** A box of a fan-out edge: one per `parallel:` branch, or one for a `foreach:`'s branches. */
interface BranchBox {
  id: string;
  label: string;
  title: string;
  edge: string;
  /** The role it runs; null for a `workflow:` branch. */
  role: string | null;
}

/** The boxes a fan-out edge draws between its role and its join role. */
function branchBoxes(from: string, index: number, edge: Transition): BranchBox[] {
  const fanOut = edge.fanOut;
  if (fanOut === undefined) return [];
  const key = edgeKey(from, index);
  const runs = (target: { role?: string; workflow?: string }) =>
    target.role !== undefined ? target.role : `workflow ${target.workflow ?? "?"}`;
  if (fanOut.parallel !== null) {
    return Object.entries(fanOut.parallel).map(([name, target]) => ({
      id: `${key}:${name}`,
      label: `${name}: ${runs(target)}`,
      title: `branch ${name} runs ${runs(target)}`,
      edge: key,
      role: target.role ?? null,
    }));
  }
  if (fanOut.foreach !== null) {
    const { expression, as, branch } = fanOut.foreach;
    return [
      {
        id: `${key}:foreach`,
        label: `foreach ${as}: ${runs(branch)}`,
        title: `one branch per item of ${expression} (as ${as}), each running ${runs(branch)}`,
        edge: key,
        role: branch.role ?? null,
      },
    ];
  }
  return [];
}

/** A branch box's title: what it runs, and the role's goal. */
function branchGoal(workflow: WorkflowNode, box: BranchBox | undefined): string | undefined {
  if (box === undefined) return undefined;
  const goal = box.role === null ? undefined : workflow.roles[box.role]?.goal;
  return goal === undefined ? box.title : `${box.title}: ${goal}`;
}

/** A join policy as written: `all`, `all-settled`, `any`, `quorum:N`, with `failFast` when set. */
export function policyLabel(fanOut: NonNullable<Transition["fanOut"]>): string {
  const policy = typeof fanOut.policy === "string" ? fanOut.policy : `quorum:${fanOut.policy.quorum}`;
  return fanOut.failFast ? `${policy}, failFast` : policy;
}

const CHAR = 7.4;
const LABEL_CHAR = 6.4;

/** An edge's label (its `$status` key, its condition, or `otherwise` after others) and a longer title. */
export function edgeLabel(workflow: WorkflowNode, from: string, index: number): { label: string; title: string } {
  const edges = workflow.graph[from] ?? [];
  const edge = edges[index];
  if (edge === undefined) return { label: "", title: "" };
  const parts: { label: string; title: string }[] = [];
  if (edge.status !== null) parts.push({ label: edge.status, title: `when $status is ${edge.status}` });
  if (edge.condition !== null) {
    const condition = workflow.conditions[edge.condition];
    parts.push({
      label: `if ${edge.condition}`,
      title:
        condition === undefined
          ? edge.condition
          : `${condition.description ?? edge.condition}: ${condition.expression}`,
    });
  }
  if (parts.length > 0) {
    return { label: parts.map((part) => part.label).join(" "), title: parts.map((part) => part.title).join(" and ") };
  }
  return edges.length > 1 ? { label: "otherwise", title: "when no edge before it holds" } : { label: "", title: "" };
}

function laidOut(workflow: WorkflowNode, marks: GraphMarks | null) {
  const graph = new Graph({ multigraph: true });
  graph.setGraph({ rankdir: "TB", nodesep: 36, ranksep: 56, edgesep: 16, marginx: 16, marginy: 16 });
  const ids = new Set<string>(["$START", ...Object.keys(workflow.roles)]);
  const targets = new Set<string>();
  const branchRoles = new Set<string>();
  for (const [from, edges] of Object.entries(workflow.graph)) {
    ids.add(from);
    for (const edge of edges) {
      ids.add(edge.role);
      targets.add(edge.role);
      const fanOut = edge.fanOut;
      for (const target of [
        ...Object.values(fanOut?.parallel ?? {}),
        ...(fanOut?.foreach ? [fanOut.foreach.branch] : []),
      ]) {
        if (target.role !== undefined) branchRoles.add(target.role);
      }
    }
  }
  // A role only branches run (no edge leads to it, none leaves it) is drawn in its branch boxes alone.
  for (const role of branchRoles) {
    if (!targets.has(role) && (workflow.graph[role] ?? []).length === 0) ids.delete(role);
  }
  const labels = new Map<string, { label: string; title: string }>();
  const loops = new Map<string, { key: string; width: number }[]>();
  const branches = new Map<string, BranchBox>();
  for (const [from, edges] of Object.entries(workflow.graph)) {
    for (const [index, edge] of edges.entries()) {
      const key = edgeKey(from, index);
      const { label, title } = edgeLabel(workflow, from, index);
      const count = marks?.edges.get(key) ?? 0;
      const text = count > 0 ? `${label}${label === "" ? "" : " "}×${count}` : label;
      labels.set(key, { label: text, title });
      for (const box of branchBoxes(from, index, edge)) branches.set(box.id, box);
      if (edge.role === from && edge.fanOut === undefined) {
        loops.set(from, [...(loops.get(from) ?? []), { key, width: text === "" ? 0 : text.length * LABEL_CHAR + 14 }]);
      }
    }
  }
  const boxes = new Map<string, { width: number; loopSpace: number }>();
  for (const id of ids) {
    const terminal = id === "$START" || id === "$END";
    const visits = marks?.visits.get(id) ?? 0;
    const width = terminal ? Math.max(64, id.length * CHAR + 24) : Math.max(110, id.length * (CHAR + 0.6) + 36);
    const height = terminal ? 30 : visits > 0 ? 52 : 40;
    const own = loops.get(id) ?? [];
    const loopSpace = own.length === 0 ? 0 : 26 + own.length * 10 + Math.max(...own.map((loop) => loop.width));
    boxes.set(id, { width, loopSpace });
    graph.setNode(id, { width: width + loopSpace, height });
  }
  for (const box of branches.values()) {
    const width = Math.max(110, box.label.length * CHAR + 28);
    boxes.set(box.id, { width, loopSpace: 0 });
    graph.setNode(box.id, { width, height: 34 });
  }
  /** A fan-out's parts: its role to each branch box (the first with the edge's label), each box to the join (the policy). */
  const parts = new Map<string, { label: string; title: string; countKey: string }>();
  for (const [from, edges] of Object.entries(workflow.graph)) {
    for (const [index, edge] of edges.entries()) {
      const key = edgeKey(from, index);
      if (edge.fanOut !== undefined) {
        const policy = policyLabel(edge.fanOut);
        for (const [order, box] of branchBoxes(from, index, edge).entries()) {
          const into = order === 0 ? (labels.get(key) ?? { label: "", title: "" }) : { label: "", title: "" };
          const out = { label: policy, title: `joined by ${edge.role} when ${policy} holds` };
          for (const [part, v, w, text] of [
            [`${key}/in:${order}`, from, box.id, into],
            [`${key}/join:${order}`, box.id, edge.role, out],
          ] as const) {
            parts.set(part, { ...text, countKey: key });
            graph.setEdge(
              v,
              w,
              text.label === ""
                ? { labelpos: "c" }
                : { width: text.label.length * LABEL_CHAR + 14, height: 18, labelpos: "c" },
              part,
            );
          }
        }
        continue;
      }
      if (edge.role === from) continue;
      const text = labels.get(key)?.label ?? "";
      graph.setEdge(
        from,
        edge.role,
        text === "" ? { labelpos: "c" } : { width: text.length * LABEL_CHAR + 14, height: 18, labelpos: "c" },
        key,
      );
    }
  }
  layout(graph);
  const nodes: LaidNode[] = graph.nodes().map((id) => {
    const node = graph.node(id);
    const box = boxes.get(id) ?? { width: node.width, loopSpace: 0 };
    return {
      id,
      x: (node.x ?? 0) - box.loopSpace / 2,
      y: node.y ?? 0,
      width: box.width,
      height: node.height,
      kind: id === "$START" || id === "$END" ? "terminal" : branches.has(id) ? "branch" : "role",
      label: branches.get(id)?.label ?? id,
      goal: workflow.roles[id]?.goal ?? branchGoal(workflow, branches.get(id)) ?? null,
    };
  });
  const edges: LaidEdge[] = graph.edges().map((ref) => {
    const edge = graph.edge(ref);
    const key = ref.name ?? "";
    const part = parts.get(key);
    const text = part ?? labels.get(key) ?? { label: "", title: "" };
    return {
      countKey: part?.countKey ?? key,
      fanOut: part !== undefined,
      key,
      from: ref.v,
      to: ref.w,
      label: text.label,
      title: text.title,
      points: edge.points ?? [],
      labelAt: typeof edge.x === "number" && typeof edge.y === "number" ? { x: edge.x, y: edge.y } : null,
      labelWidth: typeof edge.width === "number" ? edge.width : 0,
      loop: null,
    };
  });
  // A node with self-loops is wider in dagre than its box: edges end on the box, not on that width.
  const byId = new Map(nodes.map((node) => [node.id, node]));
  for (const edge of edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    const count = edge.points.length;
    if (count < 2) continue;
    if (from !== undefined && (boxes.get(from.id)?.loopSpace ?? 0) > 0) {
      edge.points[0] = boxBorder(from, edge.points[1] as { x: number; y: number });
    }
    if (to !== undefined && (boxes.get(to.id)?.loopSpace ?? 0) > 0) {
      edge.points[count - 1] = boxBorder(to, edge.points[count - 2] as { x: number; y: number });
    }
  }
  for (const node of nodes) {
    for (const [order, loop] of (loops.get(node.id) ?? []).entries()) {
      const right = node.x + node.width / 2;
      const top = node.y - node.height / 4;
      const bottom = node.y + node.height / 4;
      const bulge = 22 + order * 10;
      const text = labels.get(loop.key) ?? { label: "", title: "" };
      edges.push({
        countKey: loop.key,
        fanOut: false,
        key: loop.key,
        from: node.id,
        to: node.id,
        label: text.label,
        title: text.title,
        points: [],
        labelAt: { x: right + bulge + 4 + loop.width / 2, y: node.y + order * 20 },
        labelWidth: loop.width,
        loop: `M${right},${top} C${right + bulge * 1.4},${top - 14} ${right + bulge * 1.4},${bottom + 14} ${right + 2},${bottom}`,
      });
    }
  }
  const size = graph.graph();
  return { nodes, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

/** Where the line from a box's centre towards `point` crosses the box's border. */
function boxBorder(node: LaidNode, point: { x: number; y: number }): { x: number; y: number } {
  const dx = point.x - node.x;
  const dy = point.y - node.y;
  const w = node.width / 2;
  const h = node.height / 2;
  if (dx === 0 && dy === 0) return { x: node.x, y: node.y + h };
  const scale = Math.abs(dy) * w > Math.abs(dx) * h ? h / Math.abs(dy) : w / Math.abs(dx);
  return { x: node.x + dx * scale, y: node.y + dy * scale };
}

/** A smooth path through dagre's points: straight ends, quadratic bends through the midpoints. */
function pathOf(points: readonly { x: number; y: number }[]): string {
  if (points.length === 0) return "";
  const [first, ...rest] = points;
  if (first === undefined) return "";
  let path = `M${first.x},${first.y}`;
  for (let index = 0; index < rest.length - 1; index += 1) {
    const point = rest[index] as { x: number; y: number };
    const next = rest[index + 1] as { x: number; y: number };
    path += ` Q${point.x},${point.y} ${(point.x + next.x) / 2},${(point.y + next.y) / 2}`;
  }
  const last = rest.at(-1);
  if (last !== undefined) path += ` L${last.x},${last.y}`;
  return path;
}

/**
 * A workflow's graph as SVG, laid out by dagre: roles as boxes, `$START` and `$END` as pills, each edge
 * labelled with the `$status` it is keyed by or the condition it tests. A fan-out edge is drawn from its role
 * to a dashed box per branch (one for a `foreach:`), and from each to the join role, labelled with the
 * join's policy. With `marks`, the current role is
 * highlighted, visited roles carry their visit counts and taken edges their counts.
 */
/** An edge's arrowhead, drawn in the class named like the marker (`graph-arrow`, `graph-arrow-taken`). */
function ArrowMarker(props: { id: string; size: number }) {
  return (
    <marker
      id={props.id}
      viewBox="0 0 10 10"
      refX="9"
      refY="5"
      markerUnits="userSpaceOnUse"
      markerWidth={props.size}
      markerHeight={props.size}
      orient="auto"
    >
      <path d="M0,0 L10,5 L0,10 z" class={props.id} />
    </marker>
  );
}

export function GraphView(props: { workflow: WorkflowNode; marks?: GraphMarks | null }) {
  const marks = props.marks ?? null;
  const laid = useMemo(() => laidOut(props.workflow, marks), [props.workflow, marks]);
  return (
    <div class="graph-frame">
      <svg
        class="graph-svg"
        width={laid.width}
        height={laid.height}
        viewBox={`0 0 ${laid.width} ${laid.height}`}
        role="img"
        aria-label={`workflow ${props.workflow.name}`}
      >
        <defs>
          <ArrowMarker id="graph-arrow" size={9} />
          <ArrowMarker id="graph-arrow-taken" size={10} />
        </defs>
        {laid.edges.map((edge) => {
          const count = marks?.edges.get(edge.countKey) ?? 0;
          return (
            <g
              key={edge.key}
              class={["graph-edge", count > 0 ? "taken" : "", edge.fanOut ? "fan-out" : ""].filter(Boolean).join(" ")}
              data-edge={`${edge.from}->${edge.to}`}
              data-count={count}
            >
              <title>{`${edge.from} → ${edge.to}${edge.title === "" ? "" : `: ${edge.title}`}${count > 0 ? ` (taken ${count}×)` : ""}`}</title>
              <path
                d={edge.loop ?? pathOf(edge.points)}
                marker-end={count > 0 ? "url(#graph-arrow-taken)" : "url(#graph-arrow)"}
              />
              {edge.label !== "" && edge.labelAt !== null && (
                <g class="graph-edge-label">
                  <rect
                    class="graph-label-box"
                    x={edge.labelAt.x - edge.labelWidth / 2}
                    y={edge.labelAt.y - 9}
                    width={edge.labelWidth}
                    height={18}
                    rx={9}
                  />
                  <text
                    class="graph-label-text"
                    x={edge.labelAt.x}
                    y={edge.labelAt.y}
                    dominant-baseline="central"
                    text-anchor="middle"
                  >
                    {edge.label}
                  </text>
                </g>
              )}
            </g>
          );
        })}
        {laid.nodes.map((node) => {
          const visits = marks?.visits.get(node.id) ?? 0;
          const current = marks?.current === node.id;
          const classes = [
            "graph-node",
            node.kind,
            visits > 0 ? "visited" : "",
            current ? "current" : "",
            current && marks?.running === true ? "running" : "",
          ]
            .filter((part) => part !== "")
            .join(" ");
          const left = node.x - node.width / 2;
          const top = node.y - node.height / 2;
          return (
            <g key={node.id} class={classes} data-role={node.id} data-visits={visits}>
              <title>{node.goal === null ? node.label : `${node.label}: ${node.goal}`}</title>
              <rect
                x={left}
                y={top}
                width={node.width}
                height={node.height}
                rx={node.kind === "terminal" ? node.height / 2 : 8}
              />
              <text
                class="graph-node-name"
                x={node.x}
                y={visits > 0 && node.kind === "role" ? node.y - 8 : node.y}
                dominant-baseline="central"
                text-anchor="middle"
              >
                {node.label}
              </text>
              {visits > 0 && node.kind === "role" && (
                <text
                  class="graph-node-visits"
                  x={node.x}
                  y={node.y + 11}
                  dominant-baseline="central"
                  text-anchor="middle"
                >
                  {`${visits} visit${visits === 1 ? "" : "s"}`}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
