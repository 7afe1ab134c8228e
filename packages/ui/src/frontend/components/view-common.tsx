import "./view-common.css";

/** A thread status (or a verdict) as a coloured pill: `ended`, `suspended`, `failed`, `passed`… */
export function StateBadge(props: { state: string; title?: string }) {
  return (
    <span class={`state-badge state-${props.state}`} title={props.title}>
      {props.state}
    </span>
  );
}

/** How an ended thread ended, `reviewer · done`; nothing when it has no outcome. */
export function OutcomeText(props: { outcome: { role: string; status: string | null } | null | undefined }) {
  const { outcome } = props;
  if (outcome === null || outcome === undefined) return null;
  return (
    <span class="outcome-text">
      {outcome.role}
      {outcome.status === null ? "" : ` · ${outcome.status}`}
    </span>
  );
}

/** A page's loading line. */
export function Loading() {
  return <p class="empty loading">Loading…</p>;
}
