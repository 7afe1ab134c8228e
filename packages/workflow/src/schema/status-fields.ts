import { SUSPEND } from "@uwf/protocol";

/** The field every role may report, whatever its schema: a word the workflow's map-form edges route on. */
export const STATUS_FIELD = "$status";

/** The field that must accompany `$status: $SUSPEND`: why the role stops and what it needs. */
export const REASON_FIELD = "reason";

/** The `$status` value that pauses the thread until `uwf resume`. */
export const SUSPEND_STATUS = SUSPEND;

/**
 * Marks the `$status` and `reason` properties that `withStatusFields` adds, so
 * the output-format section can tell them from fields a role declares itself.
 * JSON Schema ignores unknown keywords.
 */
export const CONVENTION_KEYWORD = "x-uwf-convention";

/**
 * Carries a role's `ask:` schema on its reply schema (`buildReplySchema`): a reply with
 * `$status: $SUSPEND` is checked against it instead of the role's fields. JSON Schema ignores it.
 */
export const ASK_KEYWORD = "x-uwf-ask";
