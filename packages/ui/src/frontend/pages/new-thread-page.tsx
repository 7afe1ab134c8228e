import "./threads.css";
import "./workbench.css";
import type { StartResult, WorkflowListResult, WorkflowShowResult } from "@uwf/protocol";
import { useEffect, useState } from "preact/hooks";
import { ActionOutcome, useAction } from "../components/actions-common.tsx";
import { AgentPicker, agentBody } from "../components/agent-picker.tsx";
import { AnswerFieldInput, type AnswerValues, answerFieldsOf, buildAnswer } from "../components/answer-form.tsx";
import { ErrorBox } from "../components/error-box.tsx";
import { useApi } from "../components/use-api.ts";
import { ApiError } from "../lib/api.ts";
import { Link, navigate, useLocation } from "../lib/router.tsx";
import { useSession } from "../lib/session.ts";

/** What `step` of `POST /api/threads` asks for once the thread is started. */
type StepMode = "none" | "one" | "run";

const STEP_MODES: ReadonlyArray<{ mode: StepMode; label: string }> = [
  { mode: "none", label: "only start it (step it later, or queue it)" },
  { mode: "one", label: "start it and take one step" },
  { mode: "run", label: "run it until it ends or suspends" },
];

type ListedWorkflow = WorkflowListResult["workflows"][number];

/** How the form names a workflow to the server: a registered (or project) one by name, a stored thread's version by hash. */
function workflowReference(workflow: ListedWorkflow): string {
  return workflow.source === "thread" && workflow.hash !== null ? workflow.hash : workflow.name;
}

/** The workflow's `inputs:` schema, or null when it takes none. */
function inputsSchemaOf(shown: WorkflowShowResult | null): Record<string, unknown> | null {
  const inputs = shown?.workflow.inputs;
  return inputs !== null && typeof inputs === "object" && !Array.isArray(inputs)
    ? (inputs as Record<string, unknown>)
    : null;
}

/**
 * `/threads/new`: starts a thread as `uwf start` does — a workflow (registered, or one stored threads
 * run), a prompt, the inputs its `inputs:` schema asks for (a form built from it), and optionally one step
 * or a run with a chosen agent. The server checks everything as the CLI does; a refusal shows below the
 * form and nothing is made. Once started, the thread's page opens.
 */
export function NewThreadPage() {
  const session = useSession();
  const location = useLocation();
  const workflows = useApi<WorkflowListResult>("/api/workflows");
  const [workflow, setWorkflow] = useState(location.query.get("workflow") ?? "");
  const shown = useApi<WorkflowShowResult>(workflow === "" ? null : `/api/workflows/${encodeURIComponent(workflow)}`);
  const [prompt, setPrompt] = useState("");
  const [values, setValues] = useState<AnswerValues>({});
  const [cwd, setCwd] = useState("");
  const [step, setStep] = useState<StepMode>("none");
  const [agent, setAgent] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // Arrived with a version's hash (`?workflow=HASH`, from its graph): the picker shows the registered name
  // that points at it, if one does; the form sends the hash, the same version.
  const listed = workflows.data?.workflows ?? [];
  const shownChoice = listed.some((entry) => workflowReference(entry) === workflow)
    ? workflow
    : (listed.find((entry) => entry.hash === workflow) ?? null);
  const pickerValue =
    typeof shownChoice === "string" ? shownChoice : shownChoice === null ? workflow : workflowReference(shownChoice);
  const start = useAction<StartResult>({ onDone: (result) => navigate(`/threads/${result.thread}`) });
  const running = start.state.phase === "running";
  const { reset } = start;
  const failed = start.state.phase === "failed";
  // A refusal is about what was sent: once the form changes, it no longer applies.
  useEffect(() => {
    if (failed) reset();
  }, [workflow, prompt, values, cwd, step, agent]);
  const schema = workflow === "" ? null : inputsSchemaOf(shown.data);
  const fields = schema === null ? null : answerFieldsOf(schema);

  if (session?.readOnly === true) {
    return (
      <div class="threads-page workbench-page" data-testid="new-thread-page">
        <h1>New thread</h1>
        <p class="empty" data-testid="new-thread-read-only">
          This server was started with --read-only: it starts no threads.
        </p>
      </div>
    );
  }

  function submit(event: Event) {
    event.preventDefault();
    let inputs: Record<string, unknown> | undefined;
    if (schema !== null) {
      const built = buildAnswer(fields, values);
      if ("problem" in built) {
        setProblem(built.problem);
        return;
      }
      inputs = built.answer;
    }
    setProblem(null);
    void start.run("/api/threads", {
      workflow,
      prompt,
      ...(inputs === undefined ? {} : { inputs }),
      ...(cwd.trim() === "" ? {} : { cwd: cwd.trim() }),
      step,
      ...(step === "none" ? {} : agentBody(agent)),
    });
  }

  const failedThread =
    start.state.phase === "failed" && start.state.error instanceof ApiError
      ? start.state.error.error.data.thread
      : undefined;
  return (
    <div class="threads-page workbench-page" data-testid="new-thread-page">
      <h1>New thread</h1>
      <form class="panel new-thread-form" data-testid="new-thread-form" noValidate onSubmit={submit}>
        <label class="field">
          <span class="field-label">
            Workflow <span class="muted">(required)</span>
          </span>
          {workflows.error !== null ? <ErrorBox error={workflows.error} /> : null}
          <select
            data-testid="new-thread-workflow"
            value={pickerValue}
            disabled={running}
            onChange={(event) => {
              setWorkflow((event.currentTarget as HTMLSelectElement).value);
              setValues({});
            }}
          >
            <option value="">— pick a workflow —</option>
            {(workflows.data?.workflows ?? []).map((listed) => (
              <option key={`${listed.source}:${listed.name}:${listed.hash ?? ""}`} value={workflowReference(listed)}>
                {listed.source === "thread"
                  ? `${listed.name}@${listed.hash ?? ""} (a version stored threads run)`
                  : `${listed.name}${listed.description === null ? "" : ` — ${listed.description}`}`}
              </option>
            ))}
          </select>
        </label>
        {workflow === "" ? null : shown.error !== null ? (
          <ErrorBox error={shown.error} />
        ) : (
          <p class="muted">
            <Link href={`/workflows/${encodeURIComponent(workflow)}`}>its graph</Link>
          </p>
        )}
        <label class="field">
          <span class="field-label">
            Prompt <span class="muted">(required)</span>
          </span>
          <textarea
            data-testid="new-thread-prompt"
            rows={5}
            placeholder="The task (uwf start -p)"
            value={prompt}
            disabled={running}
            onInput={(event) => setPrompt((event.currentTarget as HTMLTextAreaElement).value)}
          />
        </label>
        <fieldset class="inputs" data-testid="new-thread-inputs">
          <legend>Inputs</legend>
          {workflow === "" ? (
            <p class="muted">Pick a workflow to see the inputs it takes.</p>
          ) : shown.data === null ? (
            <p class="muted">Loading…</p>
          ) : schema === null ? (
            <p class="muted" data-testid="new-thread-no-inputs">
              This workflow declares no inputs.
            </p>
          ) : fields === null ? (
            <AnswerFieldInput
              field={{
                name: "",
                kind: "json",
                required: false,
                description: "the inputs as a JSON object",
                options: [],
              }}
              value={values[""]}
              disabled={running}
              onInput={(value) => setValues({ ...values, "": value })}
            />
          ) : (
            fields.map((field) => (
              <AnswerFieldInput
                key={field.name}
                field={field}
                value={values[field.name]}
                disabled={running}
                onInput={(value) => setValues({ ...values, [field.name]: value })}
              />
            ))
          )}
        </fieldset>
        <label class="field">
          <span class="field-label">
            Directory <span class="muted">(where its agents run; default: where uwf ui was started)</span>
          </span>
          <input
            type="text"
            data-testid="new-thread-cwd"
            value={cwd}
            disabled={running}
            onInput={(event) => setCwd((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <fieldset class="steps">
          <legend>Then</legend>
          {STEP_MODES.map(({ mode, label }) => (
            <label key={mode} class="check">
              <input
                type="radio"
                name="step"
                value={mode}
                data-testid={`new-thread-step-${mode}`}
                checked={step === mode}
                disabled={running}
                onChange={() => setStep(mode)}
              />{" "}
              {label}
            </label>
          ))}
          <AgentPicker
            value={agent}
            onChange={setAgent}
            disabled={running || step === "none"}
            testid="new-thread-agent"
            label="with the agent"
          />
        </fieldset>
        {problem === null ? null : (
          <p class="action-error" data-testid="new-thread-problem">
            {problem}
          </p>
        )}
        <div class="action-row">
          <button
            type="submit"
            class="action-button action-primary"
            data-testid="new-thread-submit"
            disabled={running || workflow === ""}
          >
            {running ? <span class="spinner" aria-hidden="true" /> : null}
            {step === "none" ? "Start" : step === "one" ? "Start and step" : "Start and run"}
          </button>
        </div>
        <ActionOutcome
          state={start.state}
          describe={(result) => `Started ${result.thread}`}
          testid="new-thread-outcome"
        />
        {typeof failedThread === "string" ? (
          <p data-testid="new-thread-started">
            The thread was started: <Link href={`/threads/${failedThread}`}>{failedThread}</Link>
          </p>
        ) : null}
      </form>
    </div>
  );
}
