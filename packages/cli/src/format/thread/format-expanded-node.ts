import type { ExpandedNode } from "@uwf/protocol";
import { stringify } from "yaml";
import { createPalette } from "../text/create-palette.ts";

/** A node as YAML; a step also shows the typed answer it took, its output, agent run and body. */
export function formatExpandedNode(expanded: ExpandedNode, color: boolean): string {
  const paint = createPalette(color);
  const sections = [`${paint.bold(expanded.kind ?? "node")} ${expanded.address}`, stringify(expanded.node).trimEnd()];
  if (expanded.answer !== undefined) sections.push(paint.bold("answer"), stringify(expanded.answer).trimEnd());
  if (expanded.output !== undefined) sections.push(paint.bold("output"), stringify(expanded.output).trimEnd());
  if (expanded.run !== undefined) sections.push(paint.bold("agent run"), stringify(expanded.run).trimEnd());
  if (expanded.body !== undefined) sections.push(paint.bold("body"), expanded.body);
  return sections.join("\n\n");
}
