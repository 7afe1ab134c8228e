import type {
  FanOut,
  LogResult,
  ShownThread,
  WorkflowListResult,
  WorkflowNode,
  WorkflowProblem,
  WorkflowShowResult,
} from "@uwf/protocol";
import { useMemo, useState } from "preact/hooks";
import { ErrorBox } from "../components/error-box.tsx";
import { shortThread } from "../components/format.ts";
import { marksFromSteps } from "../components/graph-marks.ts";
import { edgeLabel, GraphView, policyLabel } from "../components/graph-view.tsx";
import { useApi } from "../components/use-api.ts";
import { Loading, OutcomeText, StateBadge } from "../components/view-common.tsx";
import { ApiError } from "../lib/api.ts";
import { useLiveEvents } from "../lib/live.ts";
import { Link } from "../lib/router.tsx";
import { useActionsOffered } from "../lib/session.ts";

function GraphLegend(props: { thread: boolean }) {
  return (
    <div class="graph-legend">
      {props.thread && (
        <>
          <span>
            <span class="swatch current" />
            current role
          </span>
          <span>
            <span class="swatch" />
            visited (with its visits)
          </span>
          <span>
            <span class="swatch edge" />
            edge taken (×count)
          </span>
        </>
      )}
      <span>edges are labelled with the $status they are keyed by, or the condition they test</span>
    </div>
  );
}

/** `/threads/:id/graph`: the thread's workflow graph, its current role highlighted, visits and edges taken counted. */
export function ThreadGraphPage(props: { id: string }) {
  const thread = useApi<ShownThread>(`/api/threads/${props.id}`);
  const log = useApi<LogResult>(`/api/threads/${props.id}/log`);
  const address = thread.data?.workflowAddress ?? null;
  const workflow = useApi<WorkflowShowResult>(address === null ? null : `/api/workflows/${address}`);
  const [running, setRunning] = useState<string | null>(null);
  useLiveEvents((event) => {
    if (event.type === "step-started") {
      setRunning(event.role);
      return;
    }
    if (event.type !== "thread-updated") setRunning(null);
    thread.reload();
    log.reload();
  }, props.id);

  const node = (workflow.data?.workflow ?? null) as WorkflowNode | null;
  const record = thread.data;
  const steps = log.data?.steps ?? null;
  const marks = useMemo(() => {
    if (node === null || record === null || steps === null) return null;
    return marksFromSteps(node, steps, {
      status: record.status,
      next: record.next,
      endEdge: record.outcome?.edge?.index ?? null,
      running,
    });
  }, [node, record, steps, running]);

  const error = thread.error ?? log.error ?? workflow.error;
  if (error !== null && error !== undefined) return <ErrorBox error={error} />;
  if (record === null || node === null || steps === null || marks === null) return <Loading />;
  return (
    <section class="graph-page">
      <div class="page-head">
        <h1>
          Graph of thread <span title={record.thread}>{shortThread(record.thread)}</span>
        </h1>
        <StateBadge state={record.status} />
        <span class="sub">
          workflow <Link href={`/workflows/${record.workflowAddress}`}>{node.name}</Link>
          {" · "}
          {steps.length} step{steps.length === 1 ? "" : "s"}
          {record.outcome !== undefined && (
            <>
              {" · ended at "}
              <OutcomeText outcome={record.outcome} />
            </>
          )}
          {record.status === "suspended" && record.reason !== null && ` · waiting: ${record.reason}`}
        </span>
        <span class="links">
          <Link href={`/threads/${record.thread}`}>Thread</Link>
          <Link href={`/threads/${record.thread}/family`}>Family</Link>
        </span>
      </div>
      <p class="graph-where" data-current={marks.current ?? ""}>
        {marks.current === null ? (
          "Not started yet."
        ) : (
          <>
            {marks.running ? "Running " : record.status === "ended" ? "Ended at " : "Stands at "}
            <strong class="graph-current-name">{marks.current}</strong>
            {record.status === "suspended" ? " (suspended, waiting for an answer)" : ""}
            {record.status === "waiting" ? " (next, once its branches are joined)" : ""}
            {record.status === "active" && !marks.running ? " (next to run)" : ""}
          </>
        )}
      </p>
      <GraphView workflow={node} marks={marks} />
      <GraphLegend thread={true} />
      {steps.length > 0 && (
        <ul class="graph-path" data-testid="graph-path">
          {steps.map((step) => (
            <li key={step.address}>
              <Link href={`/steps/${step.address}`}>
                {step.number}. {step.role}
              </Link>
              {step.status !== null && <code> {step.status}</code>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function problemsOf(error: unknown): WorkflowProblem[] | null {
  if (!(error instanceof ApiError)) return null;
  const problems = (error.error.data as { problems?: unknown }).problems;
  return Array.isArray(problems) ? (problems as WorkflowProblem[]) : null;
}

/** `/workflows/:reference`: a workflow's graph alone; an invalid one's problems, located. */
export function WorkflowGraphPage(props: { reference: string }) {
  const shown = useApi<WorkflowShowResult>(`/api/workflows/${encodeURIComponent(props.reference)}`);
  const problems = problemsOf(shown.error);
  if (problems !== null) {
    return (
      <section class="graph-page">
        <div class="page-head">
          <h1>Workflow {props.reference}</h1>
          <StateBadge state="invalid" title="the workflow does not validate" />
          <span class="sub">{problems.length === 1 ? "1 problem" : `${problems.length} problems`}</span>
          <span class="links">
            <Link href="/workflows">All workflows</Link>
          </span>
        </div>
        {shown.error instanceof ApiError && (
          <div class="error" role="alert">
            <code class="error-code">{shown.error.error.code}</code> {shown.error.error.message.split("\n")[0]}
          </div>
        )}
        <ul class="problems">
          {problems.map((problem) => (
            <li key={`${problem.file}:${problem.line}:${problem.column}:${problem.path}:${problem.message}`}>
              <span class="where">
                {problem.file}
                {problem.line === null ? "" : `:${problem.line}`}
                {problem.column === null ? "" : `:${problem.column}`}
              </span>
              {problem.path !== "" && <code>{problem.path}</code>} {problem.message}
            </li>
          ))}
        </ul>
      </section>
    );
  }
  if (shown.error !== null && shown.error !== undefined) return <ErrorBox error={shown.error} />;
  if (shown.data === null) return <Loading />;
  const node = shown.data.workflow as WorkflowNode;
  return (
    <section class="graph-page">
      <div class="page-head">
        <h1>Workflow {node.name}</h1>
        <code class="sub">{shown.data.hash}</code>
        <span class="sub">
          {Object.keys(node.roles).length} roles
          {node.description === undefined ? "" : ` · ${node.description}`}
        </span>
        <span class="links">
          <Link href="/workflows">All workflows</Link>
          <Link href={`/?workflow=${encodeURIComponent(node.name)}`}>Its threads</Link>
          <StartThreadLink reference={shown.data.hash} />
        </span>
      </div>
      <GraphView workflow={node} />
      <GraphLegend thread={false} />
      <table class="data graph-roles">
        <thead>
          <tr>
            <th>Role</th>
            <th>Goal</th>
            <th>Leads to</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(node.roles).map(([name, role]) => (
            <tr key={name}>
              <td>
                <strong>{name}</strong>
              </td>
              <td>{role.goal}</td>
              <td>
                {(node.graph[name] ?? [])
                  .map((edge, index) => {
                    const { label } = edgeLabel(node, name, index);
                    const target =
                      edge.fanOut === undefined
                        ? edge.role
                        : `${fanOutTargets(edge.fanOut)} ⇉ ${edge.role} (${policyLabel(edge.fanOut)})`;
                    return label === "" ? target : `${target} (${label})`;
                  })
                  .join(", ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** `/workflows`: registered workflows, the project's and those of stored threads, each linking to its graph. */
export function WorkflowsPage() {
  const listed = useApi<WorkflowListResult>("/api/workflows");
  if (listed.error !== null && listed.error !== undefined) return <ErrorBox error={listed.error} />;
  if (listed.data === null) return <Loading />;
  return (
    <section class="workflows-page">
      <div class="page-head">
        <h1>Workflows</h1>
        <span class="sub">registered, the project's .uwf/workflows/, and the versions threads run</span>
      </div>
      {listed.data.workflows.length === 0 ? (
        <p class="empty">No workflows (add one with `uwf workflow add FILE`).</p>
      ) : (
        <table class="data workflow-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Hash</th>
              <th>Source</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {listed.data.workflows.map((workflow) => (
              <tr key={`${workflow.source}:${workflow.name}`} data-workflow={workflow.name}>
                <td>
                  <Link href={`/workflows/${encodeURIComponent(workflow.hash ?? workflow.name)}`}>{workflow.name}</Link>
                </td>
                <td>
                  <code>{workflow.hash ?? ""}</code>
                </td>
                <td>{workflow.source}</td>
                <td>{workflow.description ?? (workflow.source === "project" ? (workflow.file ?? "") : "")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A fan-out's branches in a few words: `security, speed` or `foreach file`. */
function fanOutTargets(fanOut: FanOut): string {
  if (fanOut.parallel !== null) return Object.keys(fanOut.parallel).join(", ");
  return `foreach ${fanOut.foreach?.as ?? "item"}`;
}

/** "Start a thread" of this workflow version (`/threads/new`), unless the server is read-only. */
function StartThreadLink(props: { reference: string }) {
  if (!useActionsOffered()) return null;
  return <Link href={`/threads/new?workflow=${encodeURIComponent(props.reference)}`}>Start a thread</Link>;
}
