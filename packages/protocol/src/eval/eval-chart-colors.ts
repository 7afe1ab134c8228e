/**
 * The colours an eval report's charts draw with, the same in the HTML report (`uwf eval --html`) and in
 * the UI's experiment page: one per series, readable on light and dark backgrounds, and one per verdict.
 */
export const EVAL_CHART_PALETTE: readonly string[] = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#7f8c8d",
];

export const EVAL_VERDICT_COLORS = { passed: "#2e9d5b", failed: "#d64545", errored: "#d9962b" } as const;
