import type { FieldPath } from "../issue/field-path.ts";

/** Where edge `index` of node `from` is written in the file; the map form names it by its status key. */
export type EdgePathOf = (from: string, index: number) => FieldPath;

export const listEdgePath: EdgePathOf = (from, index) => ["graph", from, index];

/** In the map form the status is the edge's own key; in the list form it is its `status` field. */
export function statusPathOf(edgePath: FieldPath): FieldPath {
  return typeof edgePath.at(-1) === "string" ? edgePath : [...edgePath, "status"];
}
