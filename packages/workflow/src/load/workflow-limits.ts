/** Workflows are small text files; anything bigger is a mistake or an attack. Applies to each file, included ones too. */
export const MAX_WORKFLOW_BYTES = 1024 * 1024;

/**
 * A workflow with every include and alias expanded, measured as JSON characters: eight times the
 * largest file, so the sum of honest includes fits, and a file that includes a big one over and
 * over does not.
 */
export const MAX_EXPANDED_WORKFLOW_SIZE = 8 * 1024 * 1024;

/** `!include`s one workflow may resolve, counting those inside included files. */
export const MAX_INCLUDES = 200;

/** An included YAML file may include others; deeper than this is a cycle. */
export const MAX_INCLUDE_DEPTH = 8;
