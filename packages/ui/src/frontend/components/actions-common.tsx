import { useState } from "preact/hooks";
import { ApiError, postJson } from "../lib/api.ts";
import { ErrorBox } from "./error-box.tsx";

/** What an action did, once done: its result, or the error (code and message) it was refused with. */
export type ActionState<T> =
  | { phase: "idle" }
  | { phase: "running" }
  | { phase: "done"; result: T }
  | { phase: "failed"; error: unknown };

/**
 * Runs a POST action once at a time: `run(path, body)` sets `running` (disable the button, show the
 * spinner), then `done` (and `onDone`) or `failed`; `onSettled` either way. A result that carries the command's `error` (a step that failed
 * after the thread was known, as `uwf step --json` reports it) is a failure too, with that error.
 */
export function useAction<T>(callbacks: { onDone?: (result: T) => void; onSettled?: () => void } = {}) {
  const [state, setState] = useState<ActionState<T>>({ phase: "idle" });
  async function run(path: string, body: Record<string, unknown> = {}): Promise<void> {
    setState({ phase: "running" });
    try {
      const result = await postJson<T>(path, body);
      const error = (result as { error?: { code: string; message: string; data?: Record<string, unknown> } }).error;
      if (error !== undefined) {
        setState({ phase: "failed", error: new ApiError({ data: {}, ...error } as never, 200) });
      } else {
        setState({ phase: "done", result });
      }
      if (error === undefined) callbacks.onDone?.(result);
    } catch (error) {
      setState({ phase: "failed", error });
    }
    // A refused action may have changed the thread too (a failed step records its failure).
    callbacks.onSettled?.();
  }
  return { state, run, reset: () => setState({ phase: "idle" }) };
}

/** A button that shows a spinner and is disabled while its action runs. */
export function ActionButton(props: {
  label: string;
  busy: boolean;
  disabled?: boolean;
  testid: string;
  kind?: "primary" | "danger" | "plain";
  title?: string;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      class={`action-button action-${props.kind ?? "plain"}`}
      data-testid={props.testid}
      disabled={props.busy || props.disabled === true}
      title={props.title}
      onClick={props.onClick}
    >
      {props.busy ? <span class="spinner" aria-hidden="true" /> : null}
      {props.label}
    </button>
  );
}

/** An action's outcome in place: the error's code and message, or a short line on success. */
export function ActionOutcome<T>(props: { state: ActionState<T>; describe(result: T): string; testid: string }) {
  const { state } = props;
  if (state.phase === "failed") {
    return (
      <div data-testid={props.testid} data-outcome="error">
        <ErrorBox error={state.error} />
      </div>
    );
  }
  if (state.phase === "done") {
    return (
      <div class="action-ok" data-testid={props.testid} data-outcome="ok" role="status">
        {props.describe(state.result)}
      </div>
    );
  }
  return null;
}
