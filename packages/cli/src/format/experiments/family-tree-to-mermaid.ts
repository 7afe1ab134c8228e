import type { FamilyTreeNode, TreeResult } from "@uwf/protocol";
import { branchLabel } from "./format-family-tree.ts";

/**
 * A Mermaid flowchart of a family tree: a box per thread (id, status, steps, cost), an edge from each
 * parent labelled with the step its fork branched at, dotted for a fork placed by its address only, thick
 * for a branch of a fan-out (labelled with its step and key); the
 * thread asked about is drawn with a thick border. A fork onto another workflow version says so in its
 * box. Same tree, same text.
 */
export function familyTreeToMermaid(result: Omit<TreeResult, "mermaid">): string {
  const lines = ["flowchart TD"];
  const visit = (node: FamilyTreeNode) => {
    const steps = `${node.stepCount} ${node.stepCount === 1 ? "step" : "steps"}`;
    const onto = node.forkedOnto === undefined ? "" : `<br/>onto ${node.forkedOnto.name}@${node.forkedOnto.address}`;
    const note = (node.note === null ? "" : `<br/>${node.note}`) + onto;
    lines.push(
      `  ${nodeId(node)}["${node.thread}<br/>${node.status} · ${steps} · $${node.usage.costUsd.toFixed(4)}${escapeLabel(note)}"]`,
    );
    for (const child of node.children) {
      const arrow = child.kind === "branch" ? "==>" : child.placement === "address" ? "-.->" : "-->";
      lines.push(`  ${nodeId(node)} ${arrow}|"${branchLabel(child) ?? ""}"| ${nodeId(child)}`);
      visit(child);
    }
  };
  for (const root of result.roots) visit(root);
  lines.push("  classDef asked stroke-width:3px", `  class T_${result.thread} asked`);
  const branches = collectBranches(result.roots);
  if (branches.length > 0) lines.push("  classDef branch stroke-dasharray:4 2", `  class ${branches.join(",")} branch`);
  return `${lines.join("\n")}\n`;
}

/** The node ids of the branches in the tree, drawn with a dashed border. */
function collectBranches(nodes: readonly FamilyTreeNode[]): string[] {
  return nodes.flatMap((node) => [
    ...(node.kind === "branch" ? [nodeId(node)] : []),
    ...collectBranches(node.children),
  ]);
}

function nodeId(node: FamilyTreeNode): string {
  return `T_${node.thread}`;
}

function escapeLabel(text: string): string {
  return text.replaceAll('"', "#quot;");
}
