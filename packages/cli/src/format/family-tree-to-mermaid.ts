import type { FamilyTreeNode, TreeResult } from "@uwf/protocol";
import { branchLabel } from "./format-family-tree.ts";

/**
 * A Mermaid flowchart of a family tree: a box per thread (id, status, steps, cost), an edge from each
 * parent labelled with the step its fork branched at, dotted for a fork placed by its address only; the
 * thread asked about is drawn with a thick border. Same tree, same text.
 */
export function familyTreeToMermaid(result: Omit<TreeResult, "mermaid">): string {
  const lines = ["flowchart TD"];
  const visit = (node: FamilyTreeNode) => {
    const steps = `${node.stepCount} ${node.stepCount === 1 ? "step" : "steps"}`;
    const note = node.note === null ? "" : `<br/>${node.note}`;
    lines.push(
      `  ${nodeId(node)}["${node.thread}<br/>${node.status} · ${steps} · $${node.usage.costUsd.toFixed(4)}${escapeLabel(note)}"]`,
    );
    for (const child of node.children) {
      const arrow = child.placement === "address" ? "-.->" : "-->";
      lines.push(`  ${nodeId(node)} ${arrow}|"${branchLabel(child) ?? ""}"| ${nodeId(child)}`);
      visit(child);
    }
  };
  for (const root of result.roots) visit(root);
  lines.push("  classDef asked stroke-width:3px", `  class T_${result.thread} asked`);
  return `${lines.join("\n")}\n`;
}

function nodeId(node: FamilyTreeNode): string {
  return `T_${node.thread}`;
}

function escapeLabel(text: string): string {
  return text.replaceAll('"', "#quot;");
}
