// No zod here: the step path needs these names without building the workflow schemas.

/** Graph pseudo-nodes: where a thread begins, where it ends, and the status that pauses it. */
export const START = "$START";
export const END = "$END";
export const SUSPEND = "$SUSPEND";
/**
 * The `$status` of the step uwf records when a suspension's `suspendTimeout` passes unanswered, and the
 * condition name an edge list tests it with (`condition: $timeout`): only such edges follow that step.
 */
export const TIMEOUT = "$timeout";
export const RESERVED_NAMES: readonly string[] = [START, END, SUSPEND];

/** Role and condition names: identifiers that read well in templates and Mermaid. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Whether a name is one every JavaScript object already has (`__proto__`, `constructor`,
 * `toString`, …). Such a name cannot be a role, condition, field or input name: looked up by
 * name it finds the object's own machinery (a role `constructor` that "exists" undeclared), and
 * stored as a key it sets the prototype instead (a `__proto__` field silently dropped).
 */
export function isObjectPrototypeName(name: string): boolean {
  return Object.hasOwn(Object.prototype, name);
}
