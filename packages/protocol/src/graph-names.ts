// No zod here: the step path needs these names without building the workflow schemas.

/** Graph pseudo-nodes: where a thread begins, where it ends, and the status that pauses it. */
export const START = "$START";
export const END = "$END";
export const SUSPEND = "$SUSPEND";
export const RESERVED_NAMES: readonly string[] = [START, END, SUSPEND];

/** Role and condition names: identifiers that read well in templates and Mermaid. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;
