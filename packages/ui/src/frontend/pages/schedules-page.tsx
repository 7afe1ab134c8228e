import "./threads.css";
import "./workbench.css";
import type { Schedule, ScheduleListResult, ScheduleShowResult, TickResult } from "@uwf/protocol";
import { useEffect, useState } from "preact/hooks";
import { ActionButton, ActionOutcome, useAction } from "../components/actions-common.tsx";
import { AgentPicker, agentBody } from "../components/agent-picker.tsx";
import { ApiResult } from "../components/api-result.tsx";
import { CheckBox } from "../components/check-box.tsx";
import { ErrorBox } from "../components/error-box.tsx";
import { formatAgo, formatTime } from "../components/format.ts";
import { StatusBadge } from "../components/thread-status.tsx";
import { useApi } from "../components/use-api.ts";
import { useRefreshOnThreadUpdates } from "../components/use-refresh-on-thread-updates.ts";
import { Link } from "../lib/router.tsx";
import { useActionsOffered } from "../lib/session.ts";

/** How many of a schedule's newest threads its row shows (`uwf schedule show` gives ten). */
const SHOWN_THREADS = 3;

/**
 * `/schedules`: each schedule (`uwf schedule list`) with its cron and zone, when it fires next, whether it
 * is paused, and its newest threads (`uwf schedule show`); Pause, Resume and Trigger run `uwf schedule
 * pause|resume|trigger` (none under --read-only). A thread a trigger starts shows as it runs.
 */
export function SchedulesPage() {
  const list = useApi<ScheduleListResult>("/api/schedules");
  const [generation, setGeneration] = useState(0);
  const [queue, setQueue] = useState(false);
  const [agent, setAgent] = useState("");
  const refresh = useRefreshOnThreadUpdates(() => {
    list.reload();
    setGeneration((value) => value + 1);
  });
  const actions = useActionsOffered();
  return (
    <div class="threads-page workbench-page" data-testid="schedules-page">
      <h1>Schedules</h1>
      <p class="muted">
        Cron rules that start threads (<code>uwf schedule add</code>), fired by <code>uwf worker</code> or{" "}
        <code>uwf tick</code>.
      </p>
      {actions ? (
        <div class="action-row" data-testid="trigger-options">
          <span>Trigger:</span>
          <CheckBox testid="trigger-queue" checked={queue} onChange={setQueue}>
            leave the thread to workers (else it runs here)
          </CheckBox>
          <AgentPicker
            value={agent}
            onChange={setAgent}
            disabled={queue}
            testid="trigger-agent"
            label="with the agent"
          />
        </div>
      ) : null}
      <ApiResult state={list}>
        {(result) =>
          result.schedules.length === 0 ? (
            <p class="empty" data-testid="schedules-empty">
              No schedules (add one with <code>uwf schedule add NAME WORKFLOW --cron "0 9 * * 1-5"</code>).
            </p>
          ) : (
            <table class="grid" data-testid="schedule-table">
              <thead>
                <tr>
                  <th>Schedule</th>
                  <th>Workflow</th>
                  <th>Cron</th>
                  <th>Next fire</th>
                  <th>Last threads</th>
                  {actions ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {result.schedules.map((schedule) => (
                  <ScheduleRow
                    key={schedule.name}
                    schedule={schedule}
                    generation={generation}
                    actions={actions}
                    triggerBody={queue ? { queue: true } : agentBody(agent)}
                    onChanged={refresh}
                  />
                ))}
              </tbody>
            </table>
          )
        }
      </ApiResult>
    </div>
  );
}

/** The button that pauses a schedule, or resumes a paused one: `uwf schedule pause|resume`. */
const PAUSE = { action: "pause", label: "Pause", title: "uwf schedule pause: it fires no more until resumed" };
const RESUME = {
  action: "resume",
  label: "Resume",
  title: "uwf schedule resume: due again from its next cron time (missed fires are not caught up)",
};

function ScheduleRow(props: {
  schedule: Schedule;
  generation: number;
  actions: boolean;
  triggerBody: Record<string, unknown>;
  onChanged(): void;
}) {
  const { schedule } = props;
  const path = `/api/schedules/${encodeURIComponent(schedule.name)}`;
  const shown = useApi<ScheduleShowResult>(path);
  const { reload } = shown;
  // Fetched again when anything changed (a live event, an action of another row).
  useEffect(() => {
    if (props.generation > 0) reload();
  }, [props.generation, reload]);
  const pause = useAction<ScheduleShowResult>({ onSettled: props.onChanged });
  const trigger = useAction<TickResult>({ onSettled: props.onChanged });
  const busy = pause.state.phase === "running" || trigger.state.phase === "running";
  const threads = shown.data?.threads ?? [];
  const toggle = schedule.paused ? RESUME : PAUSE;
  return (
    <tr
      data-testid="schedule-row"
      data-schedule={schedule.name}
      data-paused={String(schedule.paused)}
      class={schedule.paused ? "schedule-paused" : undefined}
    >
      <td>
        <strong>{schedule.name}</strong>
        {schedule.paused ? (
          <span class="tag" data-testid="schedule-paused">
            paused
          </span>
        ) : null}
        {schedule.queue ? <span class="tag">queued</span> : null}
        <div class="muted">{schedule.prompt}</div>
      </td>
      <td>
        <Link href={`/workflows/${encodeURIComponent(schedule.workflow)}`}>{schedule.workflow}</Link>
      </td>
      <td>
        <code data-testid="schedule-cron">{schedule.cron}</code>
        <div class="muted">{schedule.tz ?? "UTC"}</div>
      </td>
      <td data-testid="schedule-next">
        {schedule.nextFireAt === null ? (
          <span class="muted">— (paused)</span>
        ) : (
          <span title={schedule.nextFireAt}>{formatTime(schedule.nextFireAt)}</span>
        )}
      </td>
      <td data-testid="schedule-threads">
        {shown.error !== null ? <ErrorBox error={shown.error} /> : null}
        {threads.length === 0 ? (
          <span class="muted">none yet</span>
        ) : (
          <ul class="plain">
            {threads.slice(0, SHOWN_THREADS).map((thread) => (
              <li key={thread.id} data-testid="schedule-thread" data-thread={thread.id}>
                <Link href={`/threads/${thread.id}`} class="mono">
                  {thread.id}
                </Link>{" "}
                <StatusBadge status={thread.status} />{" "}
                <span class="muted" title={formatTime(thread.fireTime)}>
                  {formatAgo(thread.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
        {shown.data !== null && shown.data.threadCount > SHOWN_THREADS ? (
          <span class="muted">{shown.data.threadCount} in all</span>
        ) : null}
      </td>
      {props.actions ? (
        <td>
          <div class="action-row">
            <ActionButton
              label={toggle.label}
              testid={`schedule-${toggle.action}`}
              busy={pause.state.phase === "running"}
              disabled={busy}
              title={toggle.title}
              onClick={() => void pause.run(`${path}/${toggle.action}`)}
            />
            <ActionButton
              label="Trigger now"
              testid="schedule-trigger"
              kind="primary"
              busy={trigger.state.phase === "running"}
              disabled={busy}
              title="uwf schedule trigger: fire it now, outside its cron"
              onClick={() => void trigger.run(`${path}/trigger`, props.triggerBody)}
            />
          </div>
          <ActionOutcome
            state={pause.state}
            describe={(result) => (result.paused ? "Paused." : "Resumed.")}
            testid="schedule-pause-outcome"
          />
          <ActionOutcome
            state={trigger.state}
            describe={(result) =>
              result.fired.length === 0
                ? "Nothing fired."
                : `Fired: ${result.fired.map((fire) => fire.thread ?? `skipped (${fire.skipped ?? "?"})`).join(", ")}`
            }
            testid="schedule-trigger-outcome"
          />
        </td>
      ) : null}
    </tr>
  );
}
