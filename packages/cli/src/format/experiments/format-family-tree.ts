import type { FamilyTreeNode, TreeResult } from "@uwf/protocol";
import { createPalette, type Palette } from "../text/create-palette.ts";
import { formatBudget } from "../thread/format-budget.ts";
import { describeOutcome } from "../thread/format-step-result.ts";

/**
 * The tree drawn with box characters: each thread on one line (id, status, steps, cost), each fork
 * under its parent, introduced by the step it branched at, `*` marking the thread asked about.
 *
 *     01JA…  ended  2 steps  $0.0000 *
 *     ├─ step 0: 01JB…  active  0 steps  $0.0000
 *     └─ step 2, reply replaced: 01JC…  ended  2 steps  $0.0000
 *
 * A fork made onto another workflow version (`fork --workflow`) ends with `forked onto workflow NAME@ADDRESS`.
 *
 * A branch (a child thread of a fan-out) is introduced by its parent's step and its key, with an arrow
 * that no fork has: `├─ step 2 ⇉ branch security: 01JD…  ended  3 steps  $0.0000`.
 */
export function formatFamilyTree(result: TreeResult, color: boolean): string {
  const paint = createPalette(color);
  const lines: string[] = [];
  const draw = (node: FamilyTreeNode, lead: string, branch: string) => {
    lines.push(lead + branch + describeNode(node, result.thread, paint));
    const below = lead + (branch === "" ? "" : branch === "└─ " ? "   " : "│  ");
    node.children.forEach((child, index) => {
      draw(child, below, index === node.children.length - 1 ? "└─ " : "├─ ");
    });
  };
  for (const root of result.roots) draw(root, "", "");
  return lines.join("\n");
}

function describeNode(node: FamilyTreeNode, asked: string, paint: Palette): string {
  const where = branchLabel(node);
  const steps = `${node.stepCount} ${node.stepCount === 1 ? "step" : "steps"}`;
  const parts = [paint.bold(node.thread), node.status, steps, `$${node.usage.costUsd.toFixed(4)}`];
  if (node.outcome !== undefined) parts.push(`outcome ${describeOutcome(node.outcome)}`);
  if (node.budget !== undefined) parts.push(`budget ${formatBudget(node.budget)}`);
  let line = (where === null ? "" : `${where}: `) + parts.join("  ");
  if (node.forkedOnto !== undefined) {
    line += paint.cyan(`  forked onto workflow ${node.forkedOnto.name}@${node.forkedOnto.address}`);
  }
  if (node.placement === "address") line += paint.dim("  (forked by address before uwf recorded lineage)");
  if (node.note !== null) line += paint.dim(`  (${node.note})`);
  return node.thread === asked ? `${line} *` : line;
}

/** `step 3`, `step 3, reply replaced`, `step 3 ⇉ branch security` (a fan-out's branch), or null for a root. */
export function branchLabel(
  node: Pick<FamilyTreeNode, "branchedAt" | "replaced" | "kind" | "branchOf">,
): string | null {
  if (node.branchedAt === null) return null;
  if (node.kind === "branch") return `step ${node.branchedAt} ⇉ branch ${node.branchOf?.branch ?? "?"}`;
  return `step ${node.branchedAt}${node.replaced ? ", reply replaced" : ""}`;
}
