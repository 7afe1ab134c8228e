import { type CommandEntry, type CommandGroup, defineCommand } from "./define-command.ts";
import {
  AGENT_OPTION,
  PROMPT_FILE_OPTION,
  START_OPTIONS,
  TIMEOUT_OPTION,
  WORKFLOW_ARGUMENT,
} from "./shared-options.ts";

const SCHEDULE_ARGUMENT = { syntax: "<name>", key: "name" } as const;

const SCHEDULE_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "add",
    description: "start threads of WORKFLOW on a cron schedule (fired by `uwf worker` or `uwf tick`)",
    arguments: [SCHEDULE_ARGUMENT, WORKFLOW_ARGUMENT],
    options: {
      cron: {
        flags: "--cron <expr>",
        description: "when: five fields (minute hour day month weekday), or six with seconds first",
      },
      tz: { flags: "--tz <zone>", description: "the cron's IANA time zone, such as Europe/Berlin (default UTC)" },
      prompt: { flags: "-p, --prompt <text>", description: "each thread's task (- reads stdin)" },
      promptFile: PROMPT_FILE_OPTION,
      input: START_OPTIONS.input,
      overlap: {
        flags: "--overlap <policy>",
        description: "while its last thread runs: skip (default), allow, or buffer-one (start one once it stops)",
        completes: ["skip", "allow", "buffer-one"],
      },
      catchUp: {
        flags: "--catch-up <duration>",
        description: "run fires missed by up to this long (2h); default: only the latest missed fire runs",
      },
      queue: {
        flags: "--queue",
        description: "leave its threads to `uwf worker` even when `uwf tick` fires it",
      },
    },
    examples: [
      'uwf schedule add standup review --cron "0 9 * * 1-5" --tz Europe/Berlin -p "Review yesterday\'s commits"',
      'uwf schedule add nightly flow.yaml --cron "0 2 * * *" --input branch=main --overlap skip --catch-up 6h',
    ],
    json: "scheduleShowResultSchema",
    load: async () => (await import("../schedule/add.ts")).scheduleAddCommand,
  }),
  defineCommand({
    name: "list",
    description: "every schedule: its cron, next fire and last thread",
    examples: ["uwf schedule list", "uwf schedule list --json"],
    json: "scheduleListResultSchema",
    load: async () => (await import("../schedule/list.ts")).scheduleListCommand,
  }),
  defineCommand({
    name: "show",
    description: "a schedule and the threads it started",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule show nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("../schedule/show.ts")).scheduleShowCommand,
  }),
  defineCommand({
    name: "pause",
    description: "stop a schedule firing until it is resumed",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule pause nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("../schedule/pause-and-resume.ts")).schedulePauseCommand,
  }),
  defineCommand({
    name: "resume",
    description: "fire a paused schedule again, from its next cron time (missed fires are not caught up)",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule resume nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("../schedule/pause-and-resume.ts")).scheduleResumeCommand,
  }),
  defineCommand({
    name: "trigger",
    description: "fire a schedule now, outside its cron, and run its thread here (unless queued)",
    arguments: [SCHEDULE_ARGUMENT],
    options: {
      queue: { flags: "--queue", description: "leave the thread to `uwf worker`" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
    },
    examples: ["uwf schedule trigger nightly", "uwf schedule trigger nightly --queue --json"],
    json: "tickResultSchema",
    load: async () => (await import("../schedule/trigger.ts")).scheduleTriggerCommand,
  }),
  defineCommand({
    name: "rm",
    description: "remove a schedule (the threads it started stay)",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule rm nightly"],
    json: "scheduleRemoveResultSchema",
    load: async () => (await import("../schedule/remove.ts")).scheduleRemoveCommand,
  }),
];

export const SCHEDULE_GROUP: CommandGroup = {
  name: "schedule",
  description: "start threads on a cron schedule: add, list, show, pause, resume, trigger, rm",
  commands: SCHEDULE_COMMANDS,
  examples: ['uwf schedule add nightly review --cron "0 2 * * *" -p "Review the day"', "uwf schedule list"],
};
