import { type CommandEntry, defineCommand } from "./define-command.ts";
import { parseIsoTime, parseNonNegativeInteger, parsePositiveInteger } from "./option-value-parsers.ts";
import { AGENT_OPTION, TIMEOUT_OPTION } from "./shared-options.ts";

export const WORKER_COMMAND: CommandEntry = defineCommand({
  name: "worker",
  description: "step queued threads (start --queue, run --queue) until stopped; SIGTERM drains it",
  options: {
    concurrency: {
      flags: "--concurrency <n>",
      description: "step up to N threads at once (default 1)",
      parse: parsePositiveInteger,
    },
    workflow: { flags: "--workflow <name>", description: "only threads of this workflow", completes: "workflow" },
    once: { flags: "--once", description: "exit once nothing is left to claim" },
    maxSteps: {
      flags: "--max-steps <n>",
      description: "exit after N steps in all (a retry counts)",
      parse: parsePositiveInteger,
    },
    agent: AGENT_OPTION,
    timeout: TIMEOUT_OPTION,
    grace: {
      flags: "--grace <seconds>",
      description: "after SIGTERM, how long running steps may finish before their agents are stopped (default 30)",
      parse: parseNonNegativeInteger,
    },
    pollMs: {
      flags: "--poll-ms <ms>",
      description: "how often an idle worker looks for threads (default 500, or worker.pollMs)",
      parse: parsePositiveInteger,
    },
    retries: {
      flags: "--retries <n>",
      description:
        "tries of a failing step after the first (default 3, or worker.retries); a role's retries: replace them",
      parse: parseNonNegativeInteger,
    },
    backoffMs: {
      flags: "--backoff-ms <ms>",
      description: "wait before the first retry, doubled for each next (default 1000, or worker.backoffMs)",
      parse: parseNonNegativeInteger,
    },
    schedules: { flags: "--no-schedules", description: "fire no schedules (by default a worker fires those due)" },
  },
  examples: ["uwf worker --concurrency 4", "uwf worker --workflow review --once", "uwf worker --jsonl >> worker.log"],
  json: "workerResultSchema (--jsonl: cliEventSchema)",
  load: async () => (await import("../worker.ts")).workerCommand,
});

export const TICK_COMMAND: CommandEntry = defineCommand({
  name: "tick",
  description:
    "one round of due work (time out due suspensions, fire due schedules), then exit: for a system cron or CI without a worker",
  options: {
    queue: {
      flags: "--queue",
      description: "leave the threads it starts or routes on to `uwf worker` instead of running them here",
    },
    at: {
      flags: "--at <time>",
      description:
        "take this ISO 8601 time (with its zone) as now instead of the store's clock: catch up, or try a schedule's fire times ahead",
      parse: parseIsoTime,
    },
    agent: AGENT_OPTION,
    timeout: TIMEOUT_OPTION,
  },
  examples: [
    "* * * * * cd /srv/project && uwf tick >> tick.log 2>&1",
    "uwf tick --json",
    "uwf tick --at 2027-11-07T06:30:00Z --queue",
  ],
  json: "tickResultSchema",
  load: async () => (await import("../tick.ts")).tickCommand,
});
