import "./threads.css";
import type {
  BranchGroup,
  BudgetReport,
  ExpandedNode,
  ListResult,
  LogResult,
  ShownThread,
  StepSummary,
  Usage,
} from "@uwf/protocol";
import { type ComponentChildren, Fragment } from "preact";
import { useState } from "preact/hooks";
import { ForkPanel, ThreadActions } from "../components/actions-panel.tsx";
import { ErrorBox } from "../components/error-box.tsx";
import {
  formatCost,
  formatCount,
  formatDuration,
  formatTime,
  formatTokens,
  formatValue,
} from "../components/format.ts";
import { JsonView } from "../components/json-view.tsx";
import { LiveOutputPanel } from "../components/live-output.tsx";
import { MarkdownText } from "../components/markdown-text.tsx";
import { StepTimeline } from "../components/step-timeline.tsx";
import { useDebounced } from "../components/thread-live.ts";
import { ReplyStatus, StatusBadge } from "../components/thread-status.tsx";
import { useApi } from "../components/use-api.ts";
import { useLiveEvents } from "../lib/live.ts";
import { Link } from "../lib/router.tsx";
import { useActionsOffered } from "../lib/session.ts";

/** A step some process is running now (from `step-started`), until its `step-finished` or `step-failed`. */
interface RunningStep {
  number: number;
  role: string;
  agent: string;
  at: string;
}

/**
 * One thread: its status, outcome or failure, budget and spend, lineage, start prompt and inputs, and
 * its steps as a timeline, each linking to its detail and offering "fork here". Live events (this
 * thread's) show a running step and refetch when a step is recorded; actions refetch when done.
 */
export function ThreadPage(props: { id: string }) {
  // Keyed by the thread: another thread (a fork just made) starts with fresh state.
  return <ThreadView key={props.id} id={props.id} />;
}

function ThreadView(props: { id: string }) {
  const { id } = props;
  const shown = useApi<ShownThread>(`/api/threads/${id}`);
  const log = useApi<LogResult>(`/api/threads/${id}/log`);
  const actions = useActionsOffered();
  const [running, setRunning] = useState<RunningStep | null>(null);
  // Whose lease is held now (`list --running`): a step another process began before this page opened.
  const leases = useApi<ListResult>("/api/threads?running=1&limit=0");
  const refresh = useDebounced(() => {
    shown.reload();
    log.reload();
    leases.reload();
  }, 150);
  // A parent's page follows its branches too: their steps and states show in its fan-out groups.
  const branchThreads = new Set((shown.data?.branches ?? []).flatMap((group) => group.branches.map((b) => b.thread)));
  const following = shown.data?.branches === undefined && shown.data?.status !== "waiting";
  useLiveEvents(
    (event) => {
      if (event.thread !== id) {
        if (event.thread !== null && branchThreads.has(event.thread) && event.type !== "step-started") refresh();
        return;
      }
      if (event.type === "step-started") {
        setRunning({ number: event.number, role: event.role, agent: event.agent, at: event.at });
        return;
      }
      if (event.type !== "thread-updated") setRunning(null);
      refresh();
    },
    following ? id : undefined,
  );

  if (shown.data === null) {
    return shown.error !== null ? <ErrorBox error={shown.error} /> : <p class="empty">Loading…</p>;
  }
  const thread = shown.data;
  const steps = log.data?.steps ?? [];
  const stillRunning = running !== null && !steps.some((step) => step.number === running.number) ? running : null;
  return (
    <div class="thread-page" data-testid="thread-page" data-thread={id}>
      <div class="title-row">
        <h1>
          <span class="muted">Thread</span> <code data-testid="thread-id">{id}</code>
        </h1>
        <StatusBadge status={thread.status} running={stillRunning !== null} />
        <nav class="thread-links">
          <Link href={`/threads/${id}/graph`}>Graph</Link>
          <Link href={`/threads/${id}/family`}>Family</Link>
          <Link href={`/?forksOf=${id}&recursive=1`}>Forks</Link>
          {thread.forkedFrom?.thread != null ? (
            <Link href={`/diff/${thread.forkedFrom.thread}/${id}`}>Diff with parent</Link>
          ) : null}
        </nav>
      </div>
      {shown.error !== null ? <ErrorBox error={shown.error} /> : null}
      <div class="summary-grid">
        <StateCard thread={thread} />
        <SpendCard thread={thread} budget={thread.budget} log={log.data} />
        <StartCard thread={thread} />
      </div>
      {actions ? (
        <ThreadActions
          thread={thread}
          stepping={
            stillRunning !== null ||
            (leases.data?.threads.some((listed) => listed.thread === id && listed.lease !== undefined) ?? false)
          }
          onChanged={refresh}
        />
      ) : null}
      <LiveOutputPanel thread={id} stepCount={thread.stepCount} running={stillRunning !== null} steps={steps} />
      {log.data !== null && (log.data.steps.length > 0 || (log.data.failed ?? []).length > 0) ? (
        <section class="panel">
          <h2>Timeline</h2>
          <StepTimeline thread={id} log={log.data} groups={thread.branches ?? []} />
        </section>
      ) : null}
      <section class="panel">
        <h2>
          Steps <span class="count">{thread.stepCount}</span>
        </h2>
        {log.error !== null ? <ErrorBox error={log.error} /> : null}
        <Timeline
          steps={steps}
          log={log.data}
          groups={thread.branches ?? []}
          sharedUpTo={thread.branchOf?.role != null ? thread.branchOf.step : 0}
          running={stillRunning}
          forkable={actions}
        />
      </section>
    </div>
  );
}

function Field(props: { label: string; children: ComponentChildren; testid?: string }) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd data-testid={props.testid}>{props.children}</dd>
    </>
  );
}

function StateCard(props: { thread: ShownThread }) {
  const { thread } = props;
  return (
    <section class="panel card">
      <h2>State</h2>
      <dl>
        <Field label="Workflow">
          <Link href={`/workflows/${thread.workflowAddress}`}>{thread.workflow}</Link>{" "}
          <code class="muted">{thread.workflowAddress}</code>
        </Field>
        <Field label="Status" testid="thread-status">
          {thread.status}
          {thread.queued === true ? <span class="tag">queued</span> : null}
        </Field>
        {thread.scheduledBy !== undefined ? (
          <Field label="Scheduled by" testid="thread-scheduled-by">
            <Link href="/schedules">{thread.scheduledBy.schedule}</Link>{" "}
            <span class="muted">fired for {formatTime(thread.scheduledBy.fireTime)}</span>
          </Field>
        ) : null}
        {thread.status === "waiting" ? (
          <Field label="Waiting" testid="thread-waiting">
            <span class="muted">for its branches, then</span> {thread.next ?? "the join"}
          </Field>
        ) : thread.status === "suspended" ? (
          <Field label="Waiting" testid="thread-reason">
            <span class="muted">{thread.next ?? "a role"} asks:</span>
            <MarkdownText text={thread.reason ?? ""} label="question" empty="(no reason given)" />
          </Field>
        ) : thread.next !== null && thread.status !== "ended" ? (
          <Field label="Next">{thread.next}</Field>
        ) : null}
        {thread.outcome !== undefined ? (
          <Field label="Outcome" testid="thread-outcome">
            <strong>{thread.outcome.role}</strong>
            {thread.outcome.status !== null ? (
              <>
                {" "}
                <ReplyStatus status={thread.outcome.status} />
              </>
            ) : null}{" "}
            {thread.outcome.edge === null ? (
              <span class="muted">(a branch's one reply)</span>
            ) : (
              <>
                <span class="muted">→ $END by edge #{thread.outcome.edge.index}</span>
                {thread.outcome.edge.condition !== null ? ` (${thread.outcome.edge.condition})` : ""}
                {thread.outcome.edge.key !== null ? ` (${thread.outcome.edge.key})` : ""}
              </>
            )}
          </Field>
        ) : null}
        {thread.failure !== undefined ? (
          <Field label="Failure" testid="thread-failure">
            <code class="bad">{thread.failure.code}</code> {thread.failure.message}
            <div class="muted">
              {thread.failure.attempts} attempt{thread.failure.attempts === 1 ? "" : "s"},{" "}
              {formatTime(thread.failure.failedAt)}
              {thread.failure.run != null ? (
                <>
                  {" · "}
                  <Link href={`/steps/${thread.failure.run}`}>agent run</Link>
                </>
              ) : null}
            </div>
          </Field>
        ) : null}
        {thread.forkedFrom !== null ? (
          <Field label="Forked from" testid="thread-forked-from">
            {thread.forkedFrom.thread !== null ? (
              <Link href={`/threads/${thread.forkedFrom.thread}`} class="mono">
                {thread.forkedFrom.thread}
              </Link>
            ) : (
              <span class="muted">no thread</span>
            )}
            {thread.forkedFrom.step !== null ? ` at step ${thread.forkedFrom.step}` : ""}{" "}
            <Link href={`/steps/${thread.forkedFrom.address}`} class="mono">
              {thread.forkedFrom.address}
            </Link>
            {thread.forkedFrom.replaced === true ? <span class="tag">reply replaced</span> : null}
            {thread.forkedFrom.workflow !== undefined ? (
              <span class="tag" title="the workflow version its parent ran under">
                from workflow {thread.forkedFrom.workflow}
              </span>
            ) : null}
          </Field>
        ) : null}
        {thread.branchOf !== undefined ? (
          <Field label="Branch of" testid="thread-branch-of">
            branch <strong>{thread.branchOf.branch}</strong> of{" "}
            <Link href={`/threads/${thread.branchOf.thread}`} class="mono">
              {thread.branchOf.thread}
            </Link>{" "}
            at{" "}
            <Link href={`/steps/${thread.branchOf.address}`} title={thread.branchOf.address}>
              step {thread.branchOf.step}
            </Link>
            {thread.branchOf.role !== null ? <span class="muted"> (role {thread.branchOf.role})</span> : null}
          </Field>
        ) : null}
        <Field label="Created">{formatTime(thread.createdAt)}</Field>
        <Field label="Updated">{formatTime(thread.updatedAt)}</Field>
        <Field label="Head">
          <code>{thread.head}</code>
        </Field>
      </dl>
    </section>
  );
}

function usageLine(usage: Usage): string {
  const cache =
    usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0
      ? `, cache ${formatCount(usage.cacheReadTokens)} read / ${formatCount(usage.cacheWriteTokens)} written`
      : "";
  return `${formatCount(usage.inputTokens)} in / ${formatCount(usage.outputTokens)} out${cache} · ${formatCost(usage.costUsd)}`;
}

function limit(spent: string, max: string | null): string {
  return max === null ? spent : `${spent} of ${max}`;
}

function SpendCard(props: { thread: ShownThread; budget: BudgetReport | undefined; log: LogResult | null }) {
  const { thread, budget } = props;
  return (
    <section class="panel card" data-testid="thread-spend">
      <h2>Budget and spend</h2>
      <dl>
        <Field label="Usage">{usageLine(thread.usage)}</Field>
        {thread.failedUsage !== undefined ? (
          <Field label="Failed runs">
            <span class="warn">{usageLine(thread.failedUsage)}</span>
          </Field>
        ) : null}
        {budget !== undefined ? (
          <>
            <Field label="Steps taken">
              {limit(formatCount(budget.spent.steps), budget.maxSteps === null ? null : formatCount(budget.maxSteps))}
            </Field>
            <Field label="Tokens">
              {limit(
                formatCount(budget.spent.tokens),
                budget.maxTokens === null ? null : formatCount(budget.maxTokens),
              )}
            </Field>
            <Field label="Cost">
              {limit(
                formatCost(budget.spent.costUsd),
                budget.maxCostUsd === null ? null : formatCost(budget.maxCostUsd),
              )}
            </Field>
            {budget.exceeded !== null ? (
              <Field label="Exceeded">
                <span class="bad">{budget.exceeded}</span>
              </Field>
            ) : null}
          </>
        ) : (
          <Field label="Budget">
            <span class="muted">none</span>
          </Field>
        )}
      </dl>
    </section>
  );
}

function StartCard(props: { thread: ShownThread }) {
  const { thread } = props;
  const start = useApi<ExpandedNode>(`/api/nodes/${thread.start}`);
  const node = (start.data?.node ?? null) as { prompt?: unknown; cwd?: unknown } | null;
  return (
    <section class="panel card" data-testid="thread-start">
      <h2>Start</h2>
      {start.error !== null ? <ErrorBox error={start.error} /> : null}
      <dl>
        {typeof node?.cwd === "string" ? (
          <Field label="Directory">
            <code>{node.cwd}</code>
          </Field>
        ) : null}
        {thread.inputs !== undefined
          ? Object.entries(thread.inputs).map(([key, value]) => (
              <Field key={key} label={key}>
                {value !== null && typeof value === "object" ? (
                  <JsonView value={value} />
                ) : (
                  <code>{formatValue(value)}</code>
                )}
              </Field>
            ))
          : null}
      </dl>
      {typeof node?.prompt === "string" ? (
        <MarkdownText text={node.prompt} label="start prompt" testid="thread-prompt" />
      ) : start.data === null ? (
        <p class="empty">Loading…</p>
      ) : (
        <p class="empty">No prompt.</p>
      )}
    </section>
  );
}

function Timeline(props: {
  steps: readonly StepSummary[];
  log: LogResult | null;
  groups: readonly BranchGroup[];
  /** A role branch's steps up to its parent's fan-out step are its parent's (shared history). */
  sharedUpTo: number;
  running: RunningStep | null;
  forkable: boolean;
}) {
  const [forking, setForking] = useState<string | null>(null);
  const failed = props.log?.failed ?? [];
  if (props.log === null) return <p class="empty">Loading…</p>;
  if (props.steps.length === 0 && props.running === null && failed.length === 0) {
    return (
      <p class="empty" data-testid="timeline-empty">
        No steps yet.
      </p>
    );
  }
  const columns = props.forkable ? 10 : 9;
  const fanOuts = new Map(props.groups.map((group) => [group.step, group]));
  const joins = new Map(props.groups.flatMap((group) => (group.joinedAt === null ? [] : [[group.joinedAt, group]])));
  return (
    <table class="grid timeline" data-testid="timeline">
      <thead>
        <tr>
          <th class="num">#</th>
          <th>Role</th>
          <th>$status</th>
          <th>Agent</th>
          <th>Started</th>
          <th class="num">Duration</th>
          <th class="num">Tokens</th>
          <th class="num">Cost</th>
          <th>Step</th>
          {props.forkable ? <th /> : null}
        </tr>
      </thead>
      <tbody>
        {props.steps.map((step) => (
          <Fragment key={step.address}>
            <tr data-testid="step-row" data-step={step.number} data-address={step.address}>
              <td class="num">{step.number}</td>
              <td>
                <strong>{step.role}</strong>
                {fanOuts.has(step.number) ? (
                  <span class="branch-mark" data-testid="fan-out-mark" title="this step fanned out">
                    {" "}
                    ⇉ fan-out
                  </span>
                ) : null}
                {step.number <= props.sharedUpTo ? (
                  <span class="tag" data-testid="shared-step" title="a step of the parent, which this branch shares">
                    parent's
                  </span>
                ) : null}
                {joins.has(step.number) ? (
                  <span
                    class="branch-mark"
                    data-testid="join-mark"
                    title={`joins the branches of step ${joins.get(step.number)?.step}`}
                  >
                    {" "}
                    ⇇ join
                  </span>
                ) : null}
              </td>
              <td>
                <ReplyStatus status={step.status} />
              </td>
              <td>{step.agent}</td>
              <td title={step.startedAt}>{formatTime(step.startedAt)}</td>
              <td class="num">{formatDuration(step.durationMs)}</td>
              <td class="num">{formatTokens(step.usage)}</td>
              <td class="num">{formatCost(step.usage?.costUsd)}</td>
              <td>
                <Link href={`/steps/${step.address}`} class="mono" title="the step's prompt, reply and agent run">
                  {step.address}
                </Link>
              </td>
              {props.forkable ? (
                <td>
                  <button
                    type="button"
                    class="action-button small"
                    data-testid="fork-here"
                    onClick={() => setForking(forking === step.address ? null : step.address)}
                  >
                    Fork here
                  </button>
                </td>
              ) : null}
            </tr>
            {fanOuts.has(step.number) ? (
              <tr class="branch-row">
                <td colSpan={columns}>
                  <BranchGroupView group={fanOuts.get(step.number) as BranchGroup} />
                </td>
              </tr>
            ) : null}
            {forking === step.address ? (
              <tr class="fork-row">
                <td colSpan={columns}>
                  <ForkPanel
                    address={step.address}
                    label={`step ${step.number} (${step.role})`}
                    onClose={() => setForking(null)}
                  />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
        {failed.map((attempt) => (
          <tr key={`failed-${attempt.failedAt}`} class="failed-row" data-testid="failed-attempt">
            <td class="num">{attempt.number}</td>
            <td>{attempt.role ?? <span class="muted">–</span>}</td>
            <td colSpan={columns - 3}>
              <code class="bad">{attempt.code}</code> {attempt.message}{" "}
              <span class="muted">
                ({attempt.attempts} attempt{attempt.attempts === 1 ? "" : "s"}, {formatTime(attempt.failedAt)})
              </span>
            </td>
            <td>
              {attempt.run != null ? (
                <Link href={`/steps/${attempt.run}`} class="mono">
                  agent run
                </Link>
              ) : null}
            </td>
          </tr>
        ))}
        {props.running !== null ? (
          <tr class="running-row" data-testid="running-step" data-step={props.running.number}>
            <td class="num">{props.running.number}</td>
            <td>
              <strong>{props.running.role}</strong>
            </td>
            <td>
              <span class="spinner" aria-hidden="true" /> running
            </td>
            <td>{props.running.agent}</td>
            <td>{formatTime(props.running.at)}</td>
            <td colSpan={columns - 5} />
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

/** A fan-out under its step: the join and its policy, pending or joined, and each branch with its state. */
function BranchGroupView(props: { group: BranchGroup }) {
  const { group } = props;
  return (
    <div
      class="stripe-box branch-group"
      data-testid="branch-group"
      data-step={group.step}
      data-joined={group.joinedAt ?? ""}
    >
      <h3>
        {group.branches.length} {group.branches.length === 1 ? "branch" : "branches"}{" "}
        <span class="muted">
          ({group.kind}) → join <strong>{group.join}</strong> ({group.policy}):{" "}
        </span>
        {group.joinedAt === null ? (
          <span class="tag" data-testid="branch-group-state">
            pending
          </span>
        ) : (
          <span class="tag" data-testid="branch-group-state">
            joined at step {group.joinedAt}
          </span>
        )}
      </h3>
      {group.branches.length === 0 ? (
        <p class="empty">No branches yet: the next step of the thread makes them.</p>
      ) : (
        <table class="grid branches">
          <thead>
            <tr>
              <th>Key</th>
              <th>Thread</th>
              <th>Runs</th>
              <th>Status</th>
              <th>Outcome</th>
              <th class="num">Steps</th>
              <th class="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {group.branches.map((branch) => (
              <tr key={branch.thread} data-testid="branch-row" data-key={branch.key} data-thread={branch.thread}>
                <td>
                  <strong>{branch.key}</strong>
                </td>
                <td>
                  <Link href={`/threads/${branch.thread}`} class="mono">
                    {branch.thread}
                  </Link>
                </td>
                <td>{branch.role ?? <span>workflow {branch.workflow}</span>}</td>
                <td>
                  <StatusBadge status={branch.status} />
                </td>
                <td>
                  {branch.outcome !== null ? (
                    <>
                      {branch.outcome.role} <ReplyStatus status={branch.outcome.status} />
                    </>
                  ) : branch.error !== null ? (
                    <span title={branch.error.message}>
                      <code class="bad">{branch.error.code}</code>
                    </span>
                  ) : (
                    <span class="muted">–</span>
                  )}
                </td>
                <td class="num">{branch.steps}</td>
                <td class="num">{formatCost(branch.usage.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
