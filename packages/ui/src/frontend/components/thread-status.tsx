/** The thread statuses, as `uwf list --status` takes them (protocol's THREAD_STATUSES; the frontend imports only types). */
export const THREAD_STATUS_NAMES = ["active", "waiting", "suspended", "ended", "cancelled", "failed"] as const;

/** A thread's status as a coloured pill: `data-status` carries it for styles and tests. */
export function StatusBadge(props: { status: string; running?: boolean }) {
  const label = props.running === true ? "running" : props.status;
  return (
    <span class={`status-badge status-${label}`} data-status={label}>
      {label}
    </span>
  );
}

/** A `$status` value of a reply (null when it had none). */
export function ReplyStatus(props: { status: string | null }) {
  if (props.status === null) return <span class="muted">–</span>;
  return <code class={`reply-status${props.status === "$SUSPEND" ? " reply-suspend" : ""}`}>{props.status}</code>;
}
