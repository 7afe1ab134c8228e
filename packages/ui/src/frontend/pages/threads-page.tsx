import "./threads.css";
import "./workbench.css";
import type { ListedThread, ListResult } from "@uwf/protocol";
import { useRef, useState } from "preact/hooks";
import { ApiResult } from "../components/api-result.tsx";
import { BulkBar } from "../components/bulk-actions.tsx";
import { CheckBox } from "../components/check-box.tsx";
import { formatAgo, formatCost, formatTime, formatTokens } from "../components/format.ts";
import { ThreadSearchBox } from "../components/thread-search-box.tsx";
import { StatusBadge, THREAD_STATUS_NAMES } from "../components/thread-status.tsx";
import { useApi } from "../components/use-api.ts";
import { useRefreshOnThreadUpdates } from "../components/use-refresh-on-thread-updates.ts";
import { withQuery } from "../lib/api.ts";
import { Link, navigate, useLocation } from "../lib/router.tsx";
import { useActionsOffered } from "../lib/session.ts";

/** Threads per page (as `uwf list --limit`). */
const PAGE_SIZE = 30;

/** The list's filters, kept in the page's query so a view can be shared and reloaded. */
interface Filters {
  status: string;
  workflow: string;
  outcome: string;
  forksOf: string;
  recursive: boolean;
  running: boolean;
  /** Search words (`uwf list --search`). */
  q: string;
  offset: number;
}

function readFilters(query: URLSearchParams): Filters {
  const offset = Number(query.get("offset") ?? "0");
  return {
    status: query.get("status") ?? "",
    workflow: query.get("workflow") ?? "",
    outcome: query.get("outcome") ?? "",
    forksOf: query.get("forksOf") ?? "",
    recursive: query.get("recursive") === "1",
    running: query.get("running") === "1",
    q: query.get("q") ?? "",
    offset: Number.isFinite(offset) && offset > 0 ? Math.floor(offset) : 0,
  };
}

function filtersQuery(filters: Filters) {
  return {
    status: filters.status,
    workflow: filters.workflow,
    outcome: filters.outcome,
    forksOf: filters.forksOf,
    recursive: filters.recursive && filters.forksOf !== "" ? "1" : undefined,
    running: filters.running ? "1" : undefined,
    q: filters.q === "" ? undefined : filters.q,
    offset: filters.offset === 0 ? undefined : filters.offset,
  };
}

/**
 * The threads, newest first, paged like `uwf list`, with filters in the URL, and above them the
 * suspended threads waiting for an answer. Rows refresh (debounced, in place) as any process changes a thread.
 */
export function ThreadsPage() {
  const location = useLocation();
  const filters = readFilters(location.query);
  const list = useApi<ListResult>(withQuery("/api/threads", { ...filtersQuery(filters), limit: PAGE_SIZE }));
  const waiting = useApi<ListResult>("/api/threads?status=suspended&limit=20");
  useRefreshOnThreadUpdates(() => {
    list.reload();
    waiting.reload();
  });
  // Threads ticked for an action on many (none under --read-only, which offers no action).
  const [selected, setSelected] = useState<readonly string[]>([]);
  const selectable = useActionsOffered();

  function apply(change: Partial<Filters>) {
    const next = { ...filters, offset: 0, ...change };
    navigate(withQuery("/", filtersQuery(next)), { replace: true });
  }

  return (
    <div class="threads-page">
      <WaitingGroup result={waiting.data} />
      <h1>
        Threads{" "}
        {selectable ? (
          <Link href="/threads/new" class="new-thread-link">
            New thread
          </Link>
        ) : null}
      </h1>
      <FilterBar filters={filters} apply={apply} />
      {selectable ? (
        <BulkBar
          selected={selected}
          onClear={() => setSelected([])}
          onDone={(outcomes) => {
            // Those done leave the selection; those refused stay ticked, beside their error.
            const done = new Set(outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.thread));
            setSelected((current) => current.filter((thread) => !done.has(thread)));
            list.reload();
            waiting.reload();
          }}
        />
      ) : null}
      <ApiResult state={list}>
        {(result) => (
          <>
            <ThreadTable
              threads={result.threads}
              selection={selectable ? { selected, onChange: setSelected } : undefined}
            />
            <Pager result={result} filters={filters} apply={apply} />
          </>
        )}
      </ApiResult>
    </div>
  );
}

function WaitingGroup(props: { result: ListResult | null }) {
  const threads = props.result?.threads ?? [];
  if (threads.length === 0) return null;
  return (
    <section class="panel waiting" data-testid="waiting-group">
      <h2>
        Waiting for you <span class="count">{props.result?.total ?? threads.length}</span>
      </h2>
      <ul>
        {threads.map((thread) => (
          <li key={thread.thread} data-testid="waiting-thread" data-thread={thread.thread}>
            <Link href={`/threads/${thread.thread}`} class="mono">
              {thread.thread}
            </Link>{" "}
            <span class="muted">{thread.workflow}</span>
            <div class="question">
              <span class="muted">{thread.next ?? "a role"} asks:</span> {thread.reason ?? "(no reason given)"}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A text filter applied on Enter or when it loses focus (not on every keystroke). */
/** The filters typed as text, in the order the bar shows them. */
const TEXT_FILTERS = [
  { name: "workflow", label: "Workflow", placeholder: "name" },
  { name: "outcome", label: "Outcome", placeholder: "$status" },
  { name: "forksOf", label: "Forks of", placeholder: "thread id" },
] as const;

function TextFilter(props: {
  name: string;
  label: string;
  value: string;
  placeholder: string;
  onApply(value: string): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <label>
      {props.label}
      <input
        ref={input}
        key={props.value}
        name={props.name}
        data-testid={`filter-${props.name}`}
        defaultValue={props.value}
        placeholder={props.placeholder}
        onKeyDown={(event) => {
          if (event.key === "Enter") props.onApply(event.currentTarget.value.trim());
        }}
        onBlur={(event) => {
          const value = event.currentTarget.value.trim();
          if (value !== props.value) props.onApply(value);
        }}
      />
    </label>
  );
}

function FilterBar(props: { filters: Filters; apply(change: Partial<Filters>): void }) {
  const { filters, apply } = props;
  const any =
    filters.status !== "" ||
    filters.workflow !== "" ||
    filters.outcome !== "" ||
    filters.forksOf !== "" ||
    filters.running ||
    filters.q !== "";
  return (
    <form class="filters" data-testid="thread-filters" onSubmit={(event) => event.preventDefault()}>
      <ThreadSearchBox value={filters.q} onApply={(value) => apply({ q: value })} />
      <label>
        Status
        <select
          name="status"
          data-testid="filter-status"
          value={filters.status}
          onChange={(event) => apply({ status: event.currentTarget.value })}
        >
          <option value="">any</option>
          {THREAD_STATUS_NAMES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      {TEXT_FILTERS.map((filter) => (
        <TextFilter
          key={filter.name}
          {...filter}
          value={filters[filter.name]}
          onApply={(value) => apply({ [filter.name]: value })}
        />
      ))}
      <CheckBox
        testid="filter-recursive"
        checked={filters.recursive}
        disabled={filters.forksOf === ""}
        onChange={(recursive) => apply({ recursive })}
      >
        recursive
      </CheckBox>
      <CheckBox testid="filter-running" checked={filters.running} onChange={(running) => apply({ running })}>
        running now
      </CheckBox>
      {any ? (
        <Link href="/" class="clear">
          clear filters
        </Link>
      ) : null}
    </form>
  );
}

function outcomeText(thread: ListedThread): string {
  if (thread.outcome === undefined) return "";
  return thread.outcome.status === null ? thread.outcome.role : `${thread.outcome.role} · ${thread.outcome.status}`;
}

/** The ticked threads, and how to change them; absent, the table has no checkboxes. */
interface Selection {
  selected: readonly string[];
  onChange(selected: readonly string[]): void;
}

function ThreadTable(props: { threads: readonly ListedThread[]; selection?: Selection | undefined }) {
  const { selection } = props;
  const shown = props.threads.map((thread) => thread.thread);
  const allTicked = selection !== undefined && shown.length > 0 && shown.every((id) => selection.selected.includes(id));
  const toggle = (id: string, ticked: boolean) => {
    if (selection === undefined) return;
    const rest = selection.selected.filter((other) => other !== id);
    selection.onChange(ticked ? [...rest, id] : rest);
  };
  if (props.threads.length === 0)
    return (
      <p class="empty" data-testid="threads-empty">
        No threads match.
      </p>
    );
  return (
    <table class="grid" data-testid="thread-table">
      <thead>
        <tr>
          {selection === undefined ? null : (
            <th>
              <input
                type="checkbox"
                aria-label="Select every thread shown"
                data-testid="select-all"
                checked={allTicked}
                onChange={(event) => {
                  const ticked = (event.currentTarget as HTMLInputElement).checked;
                  const others = selection.selected.filter((id) => !shown.includes(id));
                  selection.onChange(ticked ? [...others, ...shown] : others);
                }}
              />
            </th>
          )}
          <th>Thread</th>
          <th>Workflow</th>
          <th>Status</th>
          <th>Next / outcome</th>
          <th class="num">Steps</th>
          <th class="num">Tokens</th>
          <th class="num">Cost</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {props.threads.map((thread) => (
          <tr key={thread.thread} data-testid="thread-row" data-thread={thread.thread} data-status={thread.status}>
            {selection === undefined ? null : (
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${thread.thread}`}
                  data-testid="select-thread"
                  checked={selection.selected.includes(thread.thread)}
                  onChange={(event) => toggle(thread.thread, (event.currentTarget as HTMLInputElement).checked)}
                />
              </td>
            )}
            <td>
              <Link href={`/threads/${thread.thread}`} class="mono">
                {thread.thread}
              </Link>
              {thread.forkedFrom !== null ? (
                <span class="tag" title={`forked from ${thread.forkedFrom.thread ?? thread.forkedFrom.address}`}>
                  fork
                </span>
              ) : null}
              {thread.branchOf !== undefined ? (
                <span
                  class="tag branch-tag"
                  data-testid="branch-tag"
                  title={`branch ${thread.branchOf.branch} of ${thread.branchOf.thread}, step ${thread.branchOf.step}`}
                >
                  ↳ {thread.branchOf.branch} of {thread.branchOf.thread.slice(0, 8)}
                </span>
              ) : null}
              {thread.queued === true ? <span class="tag">queued</span> : null}
              {thread.scheduledBy !== undefined ? (
                <span
                  class="tag schedule-tag"
                  data-testid="schedule-tag"
                  title={`started by schedule ${thread.scheduledBy.schedule}, fired for ${formatTime(thread.scheduledBy.fireTime)}`}
                >
                  schedule {thread.scheduledBy.schedule}
                </span>
              ) : null}
            </td>
            <td>{thread.workflow}</td>
            <td>
              <StatusBadge status={thread.status} running={thread.lease !== undefined} />
            </td>
            <td>
              {thread.status === "ended" ? (
                <span>{outcomeText(thread)}</span>
              ) : thread.status === "failed" && thread.failure !== undefined ? (
                <code class="bad">{thread.failure.code}</code>
              ) : thread.status === "suspended" ? (
                <span class="muted">{thread.reason ?? ""}</span>
              ) : thread.status === "waiting" ? (
                <span class="muted">its branches, then {thread.next ?? "the join"}</span>
              ) : (
                <span class="muted">{thread.next ?? ""}</span>
              )}
            </td>
            <td class="num">{thread.stepCount}</td>
            <td class="num">{formatTokens(thread.usage)}</td>
            <td class="num">{formatCost(thread.usage.costUsd)}</td>
            <td title={formatTime(thread.updatedAt)}>{formatAgo(thread.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Pager(props: { result: ListResult; filters: Filters; apply(change: Partial<Filters>): void }) {
  const { result, apply } = props;
  const limit = result.limit ?? PAGE_SIZE;
  const first = result.total === 0 ? 0 : result.offset + 1;
  const last = result.offset + result.threads.length;
  return (
    <div class="pager" data-testid="pager">
      <span data-testid="pager-range">
        {first}–{last} of {result.total}
        {result.more === true ? "+" : ""}
      </span>
      <button
        type="button"
        class="action-button"
        data-testid="pager-previous"
        disabled={result.offset === 0}
        onClick={() => apply({ offset: Math.max(0, result.offset - limit) })}
      >
        ← Newer
      </button>
      <button
        type="button"
        class="action-button"
        data-testid="pager-next"
        disabled={last >= result.total && result.more !== true}
        onClick={() => apply({ offset: result.offset + limit })}
      >
        Older →
      </button>
    </div>
  );
}
