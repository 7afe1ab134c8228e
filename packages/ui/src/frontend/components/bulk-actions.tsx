import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, postJson } from "../lib/api.ts";

/** What can be done to many threads at once, each by its own call (`uwf cancel`, `uwf queue`, `uwf delete --yes`). */
export type BulkAction = "cancel" | "queue" | "delete";

const BULK_ACTIONS: ReadonlyArray<{ action: BulkAction; label: string; verb: string; warning: string }> = [
  {
    action: "cancel",
    label: "Cancel…",
    verb: "Cancel",
    warning: "Each stops for good (a running step too); it can still be forked.",
  },
  { action: "queue", label: "Queue…", verb: "Queue", warning: "Each is left to `uwf worker`." },
  {
    action: "delete",
    label: "Delete…",
    verb: "Delete",
    warning: "Their records go (a fan-out's branches with them); their nodes at the next `uwf cas gc`.",
  },
];

/** How one thread's call went: done, or refused with the error's code and message. */
export interface BulkOutcome {
  thread: string;
  ok: boolean;
  code?: string;
  message?: string;
}

/**
 * The bar over the threads list while some are ticked: Cancel, Queue or Delete them, after a confirmation
 * dialog naming them. Each thread is one call of the API, in turn; every thread's outcome is listed — a
 * refusal (a thread already ended, one another process steps) does not stop the others.
 */
export function BulkBar(props: {
  selected: readonly string[];
  onClear(): void;
  /** Called once every call has answered, with the outcomes (the page reloads the list and unticks those done). */
  onDone(outcomes: readonly BulkOutcome[]): void;
}) {
  const [asking, setAsking] = useState<BulkAction | null>(null);
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [outcomes, setOutcomes] = useState<{ action: BulkAction; results: BulkOutcome[] } | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (asking !== null && !element.open) element.showModal();
    if (asking === null && element.open) element.close();
  }, [asking]);

  async function apply(action: BulkAction, threads: readonly string[]) {
    setAsking(null);
    setRunning(action);
    setOutcomes({ action, results: [] });
    const results: BulkOutcome[] = [];
    for (const thread of threads) {
      try {
        const result = await postJson<{ busy?: Array<{ message: string }> }>(`/api/threads/${thread}/${action}`);
        // `uwf delete` leaves a thread another process steps, and says so in its result.
        const busy = result.busy?.[0];
        results.push(
          busy === undefined ? { thread, ok: true } : { thread, ok: false, code: "thread-busy", message: busy.message },
        );
      } catch (error) {
        results.push(
          error instanceof ApiError
            ? { thread, ok: false, code: error.error.code, message: error.error.message }
            : { thread, ok: false, message: String(error) },
        );
      }
      setOutcomes({ action, results: [...results] });
    }
    setRunning(null);
    props.onDone(results);
  }

  const chosen = BULK_ACTIONS.find((entry) => entry.action === asking);
  const count = props.selected.length;
  return (
    <>
      {count === 0 && running === null ? null : (
        <div class="bulk-bar" data-testid="bulk-bar">
          <span data-testid="bulk-count">{count} selected</span>
          {BULK_ACTIONS.map((entry) => (
            <button
              key={entry.action}
              type="button"
              class={`action-button ${entry.action === "queue" ? "action-plain" : "action-danger"}`}
              data-testid={`bulk-${entry.action}`}
              disabled={running !== null || count === 0}
              onClick={() => setAsking(entry.action)}
            >
              {running === entry.action ? <span class="spinner" aria-hidden="true" /> : null}
              {entry.label}
            </button>
          ))}
          <button
            type="button"
            class="action-button"
            data-testid="bulk-clear"
            disabled={running !== null}
            onClick={props.onClear}
          >
            Clear selection
          </button>
        </div>
      )}
      <dialog ref={dialog} class="bulk-confirm" data-testid="bulk-confirm" onClose={() => setAsking(null)}>
        {chosen === undefined ? null : (
          <form
            method="dialog"
            onSubmit={(event) => {
              event.preventDefault();
              void apply(chosen.action, props.selected);
            }}
          >
            <h2>
              {chosen.verb} {count} thread{count === 1 ? "" : "s"}?
            </h2>
            <p>{chosen.warning}</p>
            <ul class="bulk-results">
              {props.selected.map((thread) => (
                <li key={thread} class="mono">
                  {thread}
                </li>
              ))}
            </ul>
            <div class="action-row">
              <button
                type="submit"
                class={`action-button ${chosen.action === "queue" ? "action-primary" : "action-danger"}`}
                data-testid="bulk-confirm-yes"
              >
                Yes, {chosen.verb.toLowerCase()} {count === 1 ? "it" : `all ${count}`}
              </button>
              <button type="button" class="action-button" data-testid="bulk-confirm-no" onClick={() => setAsking(null)}>
                No
              </button>
            </div>
          </form>
        )}
      </dialog>
      {outcomes === null || outcomes.results.length === 0 ? null : (
        <ul class="bulk-results" data-testid="bulk-results" aria-live="polite">
          {outcomes.results.map((outcome) => (
            <li
              key={outcome.thread}
              data-testid="bulk-result"
              data-thread={outcome.thread}
              data-outcome={outcome.ok ? "ok" : "error"}
              class={outcome.ok ? "bulk-done" : "bulk-failed"}
            >
              <span class="mono">{outcome.thread}</span>:{" "}
              {outcome.ok ? (
                `${outcomes.action === "cancel" ? "cancelled" : outcomes.action === "queue" ? "queued" : "deleted"}`
              ) : (
                <>
                  {outcome.code === undefined ? null : <code>{outcome.code}</code>} {outcome.message ?? ""}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
