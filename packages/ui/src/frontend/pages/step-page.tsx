import "./threads.css";
import type { ExpandedNode, LogResult, ShowTextResult, Usage } from "@uwf/protocol";
import { Fragment } from "preact";
import { ErrorBox } from "../components/error-box.tsx";
import { formatCommandLine, formatCost, formatCount, formatDuration, formatTime } from "../components/format.ts";
import { JsonView } from "../components/json-view.tsx";
import { StepAgentOutput } from "../components/live-output.tsx";
import { MarkdownText } from "../components/markdown-text.tsx";
import { useApi } from "../components/use-api.ts";
import { Link } from "../lib/router.tsx";

/** One attempt of an agent run (`agent-run/1`'s `attempts`), as `uwf show` prints it. */
interface RunAttempt {
  request?: string;
  reply?: string | null;
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  interrupted?: boolean;
  stderrTail?: string;
  error?: { code?: string; message?: string } | string | null;
  startedAt?: string;
  completedAt?: string;
}

/** An agent run (`agent-run/1`) as `uwf show` expands it: what ran, its attempts, what it used. */
interface AgentRun {
  type?: string;
  agent?: string;
  kind?: string;
  command?: readonly string[] | string | null;
  cwd?: string;
  prompt?: string;
  attempts?: RunAttempt[];
  outcome?: string;
  error?: { code?: string; message?: string } | string | null;
  usage?: Usage | null;
  thread?: string;
}

function isRun(value: unknown): value is AgentRun {
  return typeof value === "object" && value !== null && Array.isArray((value as AgentRun).attempts);
}

function errorText(error: AgentRun["error"]): string | null {
  if (error === null || error === undefined) return null;
  if (typeof error === "string") return error;
  return `${error.code ?? "error"}: ${error.message ?? ""}`;
}

function duration(attempt: RunAttempt): number | null {
  if (attempt.startedAt === undefined || attempt.completedAt === undefined) return null;
  return new Date(attempt.completedAt).getTime() - new Date(attempt.startedAt).getTime();
}

/**
 * A step (or a failed attempt's agent run): the prompt its agent was sent, the reply's fields and body,
 * the agent run (attempts, exit, duration, usage) with its stderr, and the way back to its thread.
 */
export function StepPage(props: { address: string }) {
  const { address } = props;
  const shown = useApi<ExpandedNode>(`/api/nodes/${address}`);
  const prompt = useApi<ShowTextResult>(`/api/nodes/${address}/prompt`);
  if (shown.data === null) {
    return shown.error !== null ? <ErrorBox error={shown.error} /> : <p class="empty">Loading…</p>;
  }
  const node = shown.data;
  const stepNode = (node.node ?? {}) as { role?: string; edgePrompt?: string; prev?: string | null; type?: string };
  const run: AgentRun | null = isRun(node.run) ? node.run : isRun(node.node) ? (node.node as AgentRun) : null;
  const isStep = node.kind?.startsWith("thread-step") === true;
  const thread = run?.thread;
  return (
    <div class="step-page" data-testid="step-page" data-address={address}>
      <div class="title-row">
        <h1>
          <span class="muted">{isStep ? "Step" : isRun(node.node) ? "Agent run" : (node.kind ?? "Node")}</span>{" "}
          {stepNode.role !== undefined ? <strong>{stepNode.role}</strong> : null} <code>{address}</code>
        </h1>
        {thread !== undefined ? <StepNumber thread={thread} address={address} /> : null}
      </div>
      <div class="summary-grid">
        {node.output !== undefined ? (
          <section class="panel card" data-testid="step-output">
            <h2>Reply fields</h2>
            {Object.keys(node.output).length === 0 ? (
              <p class="empty">No fields.</p>
            ) : (
              <dl>
                {Object.entries(node.output).map(([key, value]) => (
                  <Fragment key={key}>
                    <dt>
                      <code>{key}</code>
                    </dt>
                    <dd>
                      <FieldValue value={value} />
                    </dd>
                  </Fragment>
                ))}
              </dl>
            )}
          </section>
        ) : null}
        {run !== null ? <RunCard run={run} /> : null}
      </div>
      {node.answer !== undefined ? (
        <section class="panel" data-testid="step-answer">
          <h2>The answer it was given</h2>
          <JsonView value={node.answer} openDepth={2} />
        </section>
      ) : null}
      {node.body !== undefined ? (
        <section class="panel">
          <h2>Reply body</h2>
          <MarkdownText text={node.body} label="reply body" testid="step-body" />
        </section>
      ) : null}
      {stepNode.edgePrompt !== undefined ? (
        <section class="panel">
          <h2>Edge prompt</h2>
          <MarkdownText text={stepNode.edgePrompt} label="edge prompt" testid="step-edge-prompt" />
        </section>
      ) : null}
      <section class="panel">
        <h2>Prompt sent to the agent</h2>
        {prompt.error !== null ? <ErrorBox error={prompt.error} /> : null}
        {prompt.data !== null ? (
          <MarkdownText text={prompt.data.text} label="prompt" testid="step-prompt" />
        ) : prompt.error === null ? (
          <p class="empty">Loading…</p>
        ) : null}
      </section>
      {!isStep && run !== null ? <RawReply address={address} /> : null}
      {isStep && thread !== undefined ? <StepAgentOutput thread={thread} address={address} /> : null}
      {run !== null ? <Stderr run={run} /> : null}
      {!isStep && run === null ? (
        <section class="panel">
          <h2>Node</h2>
          <JsonView value={node.node} openDepth={2} testid="node-json" />
        </section>
      ) : null}
    </div>
  );
}

/** A reply's field: a structure as a collapsible tree, text and numbers as they are. */
function FieldValue(props: { value: unknown }) {
  const { value } = props;
  if (value !== null && typeof value === "object") return <JsonView value={value} />;
  return <code class="value">{typeof value === "string" ? value : JSON.stringify(value)}</code>;
}

/** "step 3 of thread T", with the previous and next steps, from the thread's log. */
function StepNumber(props: { thread: string; address: string }) {
  const log = useApi<LogResult>(`/api/threads/${props.thread}/log`);
  const steps = log.data?.steps ?? [];
  const index = steps.findIndex((step) => step.address === props.address);
  const previous = index > 0 ? steps[index - 1] : undefined;
  const next = index >= 0 ? steps[index + 1] : undefined;
  return (
    <nav class="thread-links" data-testid="step-thread-link">
      {previous !== undefined ? <Link href={`/steps/${previous.address}`}>← step {previous.number}</Link> : null}
      <Link href={`/threads/${props.thread}`}>
        {index >= 0 ? `step ${index + 1} of ` : ""}thread <code>{props.thread}</code>
      </Link>
      {next !== undefined ? <Link href={`/steps/${next.address}`}>step {next.number} →</Link> : null}
    </nav>
  );
}

function RunCard(props: { run: AgentRun }) {
  const { run } = props;
  const attempts = run.attempts ?? [];
  const last = attempts.at(-1);
  const error = errorText(run.error);
  return (
    <section class="panel card" data-testid="step-run">
      <h2>Agent run</h2>
      <dl>
        <dt>Agent</dt>
        <dd>
          {run.agent ?? "–"} {run.kind !== undefined ? <span class="muted">({run.kind})</span> : null}
        </dd>
        {run.command != null ? (
          <>
            <dt>Command</dt>
            <dd>
              <code data-testid="step-command">{formatCommandLine(run.command)}</code>
            </dd>
          </>
        ) : null}
        {run.cwd !== undefined ? (
          <>
            <dt>Directory</dt>
            <dd>
              <code>{run.cwd}</code>
            </dd>
          </>
        ) : null}
        <dt>Outcome</dt>
        <dd>
          <span class={run.outcome === "ok" ? "ok" : "bad"}>{run.outcome ?? "–"}</span>
          {error !== null ? <div class="bad">{error}</div> : null}
        </dd>
        <dt>Attempts</dt>
        <dd data-testid="step-attempts">
          {attempts.length}
          {attempts.length > 1 ? <span class="warn"> ({attempts.length - 1} retried)</span> : null}
        </dd>
        {last !== undefined ? (
          <>
            <dt>Exit</dt>
            <dd>
              {last.exitCode ?? "–"}
              {last.signal != null ? ` (signal ${last.signal})` : ""}
              {last.timedOut === true ? " · timed out" : ""}
              {last.interrupted === true ? " · interrupted" : ""}
            </dd>
            <dt>Duration</dt>
            <dd>{formatDuration(duration(last))}</dd>
          </>
        ) : null}
        <dt>Usage</dt>
        <dd>
          {run.usage == null
            ? "–"
            : `${formatCount(run.usage.inputTokens)} in / ${formatCount(run.usage.outputTokens)} out · ${formatCost(run.usage.costUsd)}`}
        </dd>
      </dl>
      {attempts.length > 1 ? (
        <table class="grid compact">
          <thead>
            <tr>
              <th class="num">#</th>
              <th>Started</th>
              <th class="num">Duration</th>
              <th>Exit</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt, index) => (
              <tr key={attempt.startedAt ?? index}>
                <td class="num">{index + 1}</td>
                <td>{formatTime(attempt.startedAt)}</td>
                <td class="num">{formatDuration(duration(attempt))}</td>
                <td>{attempt.exitCode ?? attempt.signal ?? "–"}</td>
                <td>{errorText(attempt.error ?? null) ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** A failed run's raw reply (what the agent wrote, which did not become a step). */
function RawReply(props: { address: string }) {
  const reply = useApi<ShowTextResult>(`/api/nodes/${props.address}/reply`);
  return (
    <section class="panel">
      <h2>Raw reply</h2>
      {reply.error !== null ? <ErrorBox error={reply.error} /> : null}
      {reply.data !== null ? (
        <pre class="body" data-testid="run-reply">
          {reply.data.text === "" ? "(empty)" : reply.data.text}
        </pre>
      ) : null}
    </section>
  );
}

function Stderr(props: { run: AgentRun }) {
  const attempts = (props.run.attempts ?? []).filter((attempt) => (attempt.stderrTail ?? "") !== "");
  return (
    <section class="panel" data-testid="step-stderr">
      <h2>stderr</h2>
      {attempts.length === 0 ? (
        <p class="empty">Nothing on stderr.</p>
      ) : (
        attempts.map((attempt, index) => (
          <pre key={attempt.startedAt ?? index} class="stderr">
            {attempt.stderrTail}
          </pre>
        ))
      )}
    </section>
  );
}
