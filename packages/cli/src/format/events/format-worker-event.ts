import type { CliEvent } from "@uwf/protocol";
import { createPalette } from "../text/create-palette.ts";
import { formatDuration } from "../text/format-duration.ts";
import { formatBranchEvent } from "./format-branch-event.ts";
import { formatStepLine } from "./format-step-line.ts";

/**
 * A line of `uwf worker`'s log: the worker (`host:pid`), the thread, and what happened: claimed, a
 * step recorded (its number, role, outcome, agent and time), failed and retried, failed for good,
 * released, a fan-out and a join, a suspension timed out, and the worker's start and stop. A started step prints nothing (its line comes when it is
 * recorded), nor do `thread-ended` and `thread-suspended` (the release line says so).
 */
export function formatWorkerEvent(event: CliEvent, color: boolean): string {
  const paint = createPalette(color);
  const worker = paint.dim("worker" in event ? (event.worker ?? "") : "");
  const thread = event.thread === null ? "" : ` ${paint.cyan(event.thread)}`;
  const line = describe(event, color);
  return line === "" ? "" : `${worker}${thread} ${line}`;
}

function describe(event: CliEvent, color: boolean): string {
  const paint = createPalette(color);
  switch (event.type) {
    case "worker-started":
      return `started: up to ${event.concurrency} thread${event.concurrency === 1 ? "" : "s"} at once${event.workflow === null ? "" : ` of workflow ${event.workflow}`}`;
    case "thread-claimed":
      return `claimed (${event.workflow})`;
    case "step-finished":
      return formatStepLine(event, color);
    case "branches-started":
    case "branches-joined":
      return formatBranchEvent(event, color);
    case "step-failed":
      return `${paint.dim(`#${event.number}`)}${event.role === null ? "" : ` ${paint.bold(event.role)}`} ${paint.red("failed")}: ${event.error.code}: ${event.error.message}`;
    case "step-retry":
      return `retrying in ${formatDuration(event.delayMs)}: attempt ${event.attempt} of ${event.attempts}`;
    case "thread-failed":
      return `${paint.red("failed")} after ${event.failure.attempts} attempt${event.failure.attempts === 1 ? "" : "s"} (${event.failure.code}); \`uwf resume ${event.thread}\` tries again`;
    case "thread-released":
      if (event.reason === "misconfigured") {
        return `released as it was (${event.status}): its agent is misconfigured, so no step ran; it is claimed again once config.yaml changes`;
      }
      return `released: ${event.reason === event.status ? event.status : `${event.reason}, ${event.status}`} after ${event.steps} step${event.steps === 1 ? "" : "s"}`;
    case "schedule-fired":
      return event.thread === null
        ? `schedule ${event.schedule} fired for ${event.fireTime}: no thread (${event.skipped}${event.problem === undefined ? "" : `: ${event.problem}`})`
        : `started by schedule ${event.schedule} for ${event.fireTime}`;
    case "suspension-timed-out":
      return event.routed === null
        ? `${paint.bold(event.role)} waited past its suspendTimeout and has no $timeout edge: ${paint.red("failed")} (suspend-timeout); \`uwf resume ${event.thread} -p …\` still answers it`
        : `${paint.bold(event.role)} waited past its suspendTimeout: $timeout → ${event.routed} (${event.status})`;
    case "worker-stopped":
      return `stopped (${event.reason}): ${event.steps} step${event.steps === 1 ? "" : "s"}, ${event.claimed} thread${event.claimed === 1 ? "" : "s"} claimed, ${event.failed} failed`;
    default:
      return "";
  }
}
