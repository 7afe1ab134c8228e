/** Workflows are small text files; anything bigger is a mistake or an attack. */
export const MAX_WORKFLOW_BYTES = 1024 * 1024;

/** Aliases a workflow may resolve; far above honest reuse, far below a "billion laughs" expansion. */
export const MAX_ALIAS_COUNT = 100;

/** An included YAML file may include others; deeper than this is a cycle. */
export const MAX_INCLUDE_DEPTH = 8;
