import { messageOf, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { checkCron } from "../schedule/cron-schedule.ts";
import { validateStartInputs } from "./validate-start-inputs.ts";

/**
 * A workflow's `schedule:`: its cron expression and time zone (with croner, as they will fire), and its
 * inputs against the workflow's `inputs:`, so a schedule that could never start a thread is refused when
 * the file is loaded, not when it fires. The schema checked the shape (overlap, catchUp) already.
 */
export function checkSchedule(workflow: WorkflowNode): WorkflowIssue[] {
  const schedule = workflow.schedule;
  if (schedule === undefined) return [];
  const issues: WorkflowIssue[] = [];
  const cron = checkCron(schedule.cron, schedule.tz ?? null);
  if (cron !== null) issues.push({ severity: "error", path: ["schedule", cron.field], message: cron.problem });
  try {
    validateStartInputs(workflow, schedule.inputs ?? {});
  } catch (error) {
    const path = schedule.inputs === undefined ? ["schedule"] : ["schedule", "inputs"];
    issues.push({ severity: "error", path, message: messageOf(error) });
  }
  return issues;
}
