import type { CliEvent } from "@uwf/protocol";
import type { EmitOptions } from "../../pipeline/command-context.ts";
import { createPalette } from "../text/create-palette.ts";
import { formatBranchEvent } from "./format-branch-event.ts";
import { formatStepLine } from "./format-step-line.ts";
import { formatWorkerEvent } from "./format-worker-event.ts";

/**
 * An event as text, printed the moment it happens: a finished step's line, a fan-out's and a join's line, after its thread's id
 * when several threads step at once; every event of `uwf worker` as a line of its log (formatWorkerEvent). The other events print nothing: the status line on stderr shows
 * a running step, the error boundary a failed one, and the command's result where the thread stands at the end.
 */
export function formatEvent(event: CliEvent, color: boolean, options: EmitOptions = {}): string {
  if ("worker" in event && event.worker !== undefined) return formatWorkerEvent(event, color);
  if (event.type === "ui-started") {
    return `uwf ui: ${event.url}${event.readOnly ? " (read-only)" : ""}\nopen it in a browser; Ctrl-C stops the server`;
  }
  if (event.type === "branches-started" || event.type === "branches-joined") {
    const line = formatBranchEvent(event, color);
    return options.showThread === true ? `${createPalette(color).cyan(event.thread)} ${line}` : line;
  }
  if (event.type !== "step-finished") return "";
  const line = formatStepLine(event, color);
  return options.showThread === true ? `${createPalette(color).cyan(event.thread)} ${line}` : line;
}
