import type { ForkResult, ShownThread, StepResult, SuspensionView } from "@uwf/protocol";
import { useEffect, useState } from "preact/hooks";
import { getJson } from "../lib/api.ts";
import { navigate } from "../lib/router.tsx";
import { ActionButton, ActionOutcome, useAction } from "./actions-common.tsx";
import { AgentPicker, agentBody } from "./agent-picker.tsx";
import { type AnswerField, type AnswerValues, answerFieldsOf, buildAnswer, TypedAnswerInputs } from "./answer-form.tsx";
import { CheckBox } from "./check-box.tsx";
import { ErrorBox } from "./error-box.tsx";
import { MarkdownText } from "./markdown-text.tsx";

function describeStep(result: StepResult): string {
  const count = result.steps.length;
  const where = result.status === "suspended" && result.reason !== undefined ? ` (${result.reason})` : "";
  return `${count} step${count === 1 ? "" : "s"} recorded; the thread is ${result.status}${where}.`;
}

/**
 * What the user can do with a thread (absent under `--read-only`: the caller leaves it out): step
 * once, run on to the end or the next suspension, resume a suspended thread, queue it for workers,
 * cancel it. Each calls the API (which runs the command as the CLI does) and then `onChanged`, so
 * the page refetches whether or not the live feed reports the change.
 */
export function ThreadActions(props: {
  thread: ShownThread;
  /** A process steps the thread now (its lease is held, or the live feed reported a step started): Step and Run wait. */
  stepping: boolean;
  onChanged(): void;
}) {
  const { thread, onChanged } = props;
  const id = thread.thread;
  // When the last action settled, the thread's `updatedAt` then: a later change means the thread moved on
  // (another process, a worker), and the actions' messages, about how it stood, are cleared.
  const [settledAt, setSettledAt] = useState<string | null>(null);
  const settled = () => {
    onChanged();
    getJson<ShownThread>(`/api/threads/${id}`).then(
      (now) => setSettledAt(now.updatedAt),
      () => {},
    );
  };
  const step = useAction<StepResult>({ onSettled: settled });
  const run = useAction<StepResult>({ onSettled: settled });
  const queue = useAction<unknown>({ onSettled: settled });
  const cancel = useAction<unknown>({ onSettled: settled });
  const resume = useAction<StepResult>({ onSettled: settled });
  const [confirming, setConfirming] = useState(false);
  /** The agent Step, Run and Resume run with (`--agent`); empty: config.yaml's choice. */
  const [agent, setAgent] = useState("");
  const actions = [step, run, queue, cancel, resume];
  const anyRunning = actions.some((action) => action.state.phase === "running");
  useEffect(() => {
    if (settledAt === null || anyRunning || thread.updatedAt <= settledAt) return;
    for (const action of actions) action.reset();
    setSettledAt(null);
  });
  // A parent waiting for its branches is stepped (its step steps its branches) and cancelled (with them) as an active one.
  const waiting = thread.status === "waiting";
  // A suspension that waited past its suspendTimeout with no $timeout edge failed, and takes a late answer, not a step.
  const lateAnswer = thread.status === "failed" && thread.failure?.code === "suspend-timeout";
  const steppable = thread.status === "active" || (thread.status === "failed" && !lateAnswer) || waiting;
  const cancellable =
    thread.status === "active" || thread.status === "suspended" || thread.status === "failed" || waiting;
  const busy = anyRunning;
  const elsewhere = props.stepping && !busy ? " (disabled: a step of this thread is running)" : "";
  const outcomes = [step.state, run.state, queue.state, cancel.state, resume.state].some(
    (state) => state.phase !== "idle",
  );
  if (!steppable && !cancellable && !outcomes) return null;
  return (
    <section class="panel actions" data-testid="thread-actions">
      <h2>Actions</h2>
      {steppable || thread.status === "suspended" || lateAnswer ? (
        <div class="action-row">
          <AgentPicker value={agent} onChange={setAgent} disabled={busy} testid="action-agent" />
        </div>
      ) : null}
      {thread.status === "suspended" || lateAnswer ? (
        <ResumeForm
          thread={thread}
          running={resume.state.phase === "running"}
          resume={(path, body) => resume.run(path, { ...body, ...agentBody(agent) })}
        />
      ) : null}
      <div class="action-row">
        {steppable ? (
          <>
            <ActionButton
              label="Step once"
              testid="action-step"
              kind="primary"
              busy={step.state.phase === "running"}
              disabled={!steppable || busy || props.stepping}
              title={`${waiting ? "uwf step: a step of each branch that can run" : "uwf step: one step of the thread"}${elsewhere}`}
              onClick={() => void step.run(`/api/threads/${id}/step`, agentBody(agent))}
            />
            <ActionButton
              label="Run to the end"
              testid="action-run"
              busy={run.state.phase === "running"}
              disabled={!steppable || busy || props.stepping}
              title={`${
                waiting
                  ? "uwf step --all: run the branches to their end, then the join, and on"
                  : "uwf step --all: step until the thread ends or suspends"
              }${elsewhere}`}
              onClick={() => void run.run(`/api/threads/${id}/step`, { all: true, ...agentBody(agent) })}
            />
            <ActionButton
              label={thread.queued === true ? "Queued" : "Queue for workers"}
              testid="action-queue"
              busy={queue.state.phase === "running"}
              disabled={!steppable || thread.queued === true || busy}
              title="leave the thread to `uwf worker`"
              onClick={() => void queue.run(`/api/threads/${id}/queue`)}
            />
          </>
        ) : null}
        {!cancellable ? null : confirming ? (
          <span class="confirm" data-testid="cancel-confirm">
            Cancel this thread for good?{" "}
            <ActionButton
              label="Yes, cancel"
              testid="action-cancel-yes"
              kind="danger"
              busy={cancel.state.phase === "running"}
              onClick={() => {
                setConfirming(false);
                void cancel.run(`/api/threads/${id}/cancel`);
              }}
            />{" "}
            <ActionButton label="No" testid="action-cancel-no" busy={false} onClick={() => setConfirming(false)} />
          </span>
        ) : (
          <ActionButton
            label="Cancel…"
            testid="action-cancel"
            kind="danger"
            busy={cancel.state.phase === "running"}
            disabled={!cancellable || busy}
            title="uwf cancel: stop the thread for good (it can still be forked)"
            onClick={() => setConfirming(true)}
          />
        )}
      </div>
      <ActionOutcome state={resume.state} describe={describeStep} testid="resume-outcome" />
      <ActionOutcome state={step.state} describe={describeStep} testid="action-step-outcome" />
      <ActionOutcome state={run.state} describe={describeStep} testid="action-run-outcome" />
      <ActionOutcome
        state={queue.state}
        describe={() => "Queued: a worker will step it."}
        testid="action-queue-outcome"
      />
      <ActionOutcome state={cancel.state} describe={() => "Cancelled."} testid="action-cancel-outcome" />
    </section>
  );
}

/** The text answer of a role without an answer schema (`uwf resume -p`), as the user types it. */
export interface AnswerInputProps {
  value: string;
  onInput(value: string): void;
  disabled: boolean;
}

/**
 * The inputs for a suspended role's answer: a form generated from its answer schema (`suspension.answerSchema`,
 * see answer-form.tsx), or a text box for a role that takes text. Null fields: the whole answer as JSON.
 */
export function answerInputFor(suspension: SuspensionView | undefined): { fields: AnswerField[] | null } | null {
  const schema = suspension?.answerSchema ?? null;
  return schema === null ? null : { fields: answerFieldsOf(schema) };
}

function TextAnswer(props: AnswerInputProps) {
  return (
    <textarea
      id="resume-answer"
      data-testid="resume-answer"
      rows={3}
      placeholder="Your answer or new instruction (uwf resume -p)"
      value={props.value}
      disabled={props.disabled}
      onInput={(event) => props.onInput((event.currentTarget as HTMLTextAreaElement).value)}
    />
  );
}

/** The suspended role's question and the answer's input; the outcome is shown by ThreadActions (it outlives the form). */
function ResumeForm(props: {
  thread: ShownThread;
  running: boolean;
  resume(path: string, body: Record<string, unknown>): Promise<void>;
}) {
  const { thread, running } = props;
  const [answer, setAnswer] = useState("");
  const [values, setValues] = useState<AnswerValues>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [all, setAll] = useState(true);
  const typed = answerInputFor(thread.suspension);
  return (
    <form
      class="resume-form"
      data-testid="resume-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (typed === null) {
          void props.resume(`/api/threads/${thread.thread}/resume`, {
            ...(answer.trim() === "" ? {} : { prompt: answer }),
            all,
          });
          return;
        }
        // The server checks the answer against the schema, as `uwf resume --answer` does; a refusal shows below.
        const built = buildAnswer(typed.fields, values);
        setProblem("problem" in built ? built.problem : null);
        if ("answer" in built) void props.resume(`/api/threads/${thread.thread}/resume`, { answer: built.answer, all });
      }}
    >
      <div class="question" data-testid="resume-question">
        <span class="muted">{thread.next ?? "The thread"} asks:</span>
        <MarkdownText text={thread.reason ?? ""} label="question" empty="(no reason given)" />
      </div>
      {typed === null || thread.suspension === undefined ? (
        <TextAnswer value={answer} onInput={setAnswer} disabled={running} />
      ) : (
        <TypedAnswerInputs
          suspension={thread.suspension}
          fields={typed.fields}
          values={values}
          onChange={setValues}
          disabled={running}
        />
      )}
      {problem === null ? null : (
        <p class="action-error" data-testid="answer-problem">
          {problem}
        </p>
      )}
      <div class="action-row">
        <button type="submit" class="action-button action-primary" data-testid="resume-submit" disabled={running}>
          {running ? <span class="spinner" aria-hidden="true" /> : null}
          Resume
        </button>
        <CheckBox testid="resume-all" checked={all} onChange={setAll}>
          then run to the end or the next suspension
        </CheckBox>
      </div>
    </form>
  );
}

/**
 * "Fork here" on a step: a new thread whose chain holds the steps up to this one, optionally with
 * this step's reply replaced by an edited one (prefilled with the current reply). The server writes
 * the reply to a file and runs `uwf fork ADDRESS --output FILE`, which checks it against the role's
 * schema and refuses an invalid reply: that error is shown here. On success, the page goes to the fork.
 */
export function ForkPanel(props: { address: string; label: string; onClose(): void }) {
  const { address } = props;
  const [replace, setReplace] = useState(false);
  const [reply, setReply] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const fork = useAction<ForkResult>({ onDone: (result) => navigate(`/threads/${result.thread}`) });
  const running = fork.state.phase === "running";

  function toggleReplace(checked: boolean) {
    setReplace(checked);
    if (checked && reply === null) {
      getJson<{ text: string }>(`/api/nodes/${address}/reply`).then(
        (result) => setReply(result.text),
        (error: unknown) => setLoadError(error),
      );
    }
  }

  return (
    <form
      class="fork-panel"
      data-testid="fork-panel"
      onSubmit={(event) => {
        event.preventDefault();
        void fork.run(`/api/nodes/${address}/fork`, replace && reply !== null ? { reply } : {});
      }}
    >
      <strong>Fork at {props.label}</strong>
      <CheckBox testid="fork-replace" checked={replace} onChange={toggleReplace}>
        replace this step's reply (checked against the role's schema)
      </CheckBox>
      {replace ? (
        reply === null ? (
          loadError === null ? (
            <p class="muted">Loading the reply…</p>
          ) : (
            <ErrorBox error={loadError} />
          )
        ) : (
          <textarea
            class="reply-editor"
            data-testid="fork-reply"
            rows={10}
            spellcheck={false}
            value={reply}
            disabled={running}
            onInput={(event) => setReply((event.currentTarget as HTMLTextAreaElement).value)}
          />
        )
      ) : null}
      <div class="action-row">
        <button
          type="submit"
          class="action-button action-primary"
          data-testid="fork-submit"
          disabled={running || (replace && reply === null)}
        >
          {running ? <span class="spinner" aria-hidden="true" /> : null}
          {replace ? "Fork with this reply" : "Fork here"}
        </button>
        <button type="button" class="action-button" data-testid="fork-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ActionOutcome state={fork.state} describe={(result) => `Forked: ${result.thread}`} testid="fork-outcome" />
    </form>
  );
}
