import "./step-timeline.css";
import type { BranchGroup, FailedAttempt, LogResult, StepSummary } from "@uwf/protocol";
import { useEffect, useState } from "preact/hooks";
import { getJson } from "../lib/api.ts";
import { Link } from "../lib/router.tsx";
import { formatDuration, formatTime } from "./format.ts";

/** One row of the timeline: the thread's own steps, or one branch's. */
interface Lane {
  key: string;
  label: string;
  thread: string;
  steps: readonly StepSummary[];
  failed: readonly FailedAttempt[];
}

/**
 * A thread's steps as bars on one time axis, each as long as its step took: the thread's own lane first,
 * then a lane per branch of each fan-out (its own steps, not the history it shares with its parent).
 * A step whose agent was run more than once (a reply retried) is marked with its attempt count; a failed
 * attempt is a red mark where it failed. Each bar links to its step.
 */
export function StepTimeline(props: { thread: string; log: LogResult; groups: readonly BranchGroup[] }) {
  const branchLanes = useBranchLanes(props.groups);
  const lanes: Lane[] = [
    { key: "", label: "this thread", thread: props.thread, steps: props.log.steps, failed: props.log.failed ?? [] },
    ...branchLanes,
  ];
  const times = lanes.flatMap((lane) => [
    ...lane.steps.flatMap((step) => [Date.parse(step.startedAt), Date.parse(step.completedAt)]),
    ...lane.failed.map((attempt) => Date.parse(attempt.failedAt)),
  ]);
  if (times.length === 0) return null;
  const start = Math.min(...times);
  const span = Math.max(1, Math.max(...times) - start);
  const at = (time: string) => ((Date.parse(time) - start) / span) * 100;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div class="step-timeline" data-testid="step-timeline" data-span-ms={span}>
      <div class="timeline-axis" aria-hidden="true">
        <span class="lane-label">{formatTime(new Date(start).toISOString())}</span>
        <div class="lane-track">
          {ticks.map((fraction) => (
            <span key={fraction} class="tick" style={{ left: `${fraction * 100}%` }}>
              +{formatDuration(fraction * span)}
            </span>
          ))}
        </div>
      </div>
      {lanes.map((lane) => (
        <div
          class="timeline-lane"
          key={lane.key}
          data-testid="timeline-lane"
          data-lane={lane.key}
          data-thread={lane.thread}
        >
          <span class="lane-label">
            {lane.key === "" ? (
              lane.label
            ) : (
              <Link href={`/threads/${lane.thread}`} title={lane.thread}>
                {lane.label}
              </Link>
            )}
          </span>
          <div class="lane-track">
            {lane.steps.map((step) => {
              const left = at(step.startedAt);
              const width = Math.min(100, Math.max(0.6, at(step.completedAt) - left));
              const retried = (step.attempts ?? 1) > 1;
              const label = `step ${step.number} ${step.role}: ${formatDuration(step.durationMs)}${retried ? `, ${step.attempts} attempts` : ""}`;
              return (
                <Link
                  key={step.address}
                  href={`/steps/${step.address}`}
                  class={`timeline-bar${retried ? " retried" : ""}`}
                  style={{ left: `${Math.min(left, 100 - width)}%`, width: `${width}%` }}
                  title={`${label} (${formatTime(step.startedAt)})`}
                  aria-label={label}
                  data-testid="timeline-bar"
                  data-step={step.number}
                  data-attempts={step.attempts ?? 1}
                >
                  <span class="bar-text">
                    {step.role}
                    {retried ? ` ×${step.attempts}` : ""}
                  </span>
                </Link>
              );
            })}
            {lane.failed.map((attempt) => {
              const label = `step ${attempt.number}${attempt.role === null ? "" : ` ${attempt.role}`} failed: ${attempt.code} (${attempt.attempts} attempt${attempt.attempts === 1 ? "" : "s"})`;
              const left = `${Math.min(at(attempt.failedAt), 99)}%`;
              return attempt.run != null ? (
                <Link
                  key={attempt.failedAt}
                  href={`/steps/${attempt.run}`}
                  class="timeline-failed"
                  style={{ left }}
                  title={`${label}: ${attempt.message}`}
                  aria-label={label}
                  data-testid="timeline-failed"
                >
                  ✗
                </Link>
              ) : (
                <span
                  key={attempt.failedAt}
                  class="timeline-failed"
                  style={{ left }}
                  title={`${label}: ${attempt.message}`}
                  data-testid="timeline-failed"
                >
                  ✗
                </span>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}

/** Each branch's own steps, fetched from its log (refetched when the groups change). */
function useBranchLanes(groups: readonly BranchGroup[]): Lane[] {
  const branches = groups.flatMap((group) =>
    group.branches.map((branch) => ({ ...branch, label: `⇉ ${branch.key} (step ${group.step})` })),
  );
  const signature = JSON.stringify(branches.map((branch) => [branch.thread, branch.steps, branch.status]));
  const [lanes, setLanes] = useState<Lane[]>([]);
  // The signature stands for the branches (an array, new on every render)
  useEffect(() => {
    if (branches.length === 0) {
      setLanes([]);
      return;
    }
    const abort = new AbortController();
    Promise.all(
      branches.map(async (branch): Promise<Lane> => {
        const log = await getJson<LogResult>(`/api/threads/${branch.thread}/log`, abort.signal);
        return {
          key: branch.key,
          label: branch.label,
          thread: branch.thread,
          // A role branch's log starts with the history it shares with its parent: only its own steps are its lane's.
          steps: log.steps.slice(Math.max(0, log.steps.length - branch.steps)),
          failed: log.failed ?? [],
        };
      }),
    ).then(setLanes, () => {
      if (!abort.signal.aborted) setLanes([]);
    });
    return () => abort.abort();
  }, [signature]);
  return lanes;
}
