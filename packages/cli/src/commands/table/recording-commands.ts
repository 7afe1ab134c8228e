import { type CommandTable, defineCommand } from "./define-command.ts";

/** `--forks-of`, as `trace export` and `scenario export` take it: a family of threads to read. */
const FORKS_OF_OPTION = {
  flags: "--forks-of <thread>",
  description: "this thread and its forks, at any depth",
  completes: "thread",
} as const;

/** Commands over recorded threads: `uwf trace export`, `uwf scenario export`, `uwf replay`. */
export const RECORDING_COMMANDS: CommandTable = [
  {
    name: "trace",
    description: "OpenTelemetry: send stored threads' steps to an OTLP collector as traces (not UWF_TRACE's timings)",
    commands: [
      defineCommand({
        name: "export",
        description:
          "send threads (with their branches) as OTLP/HTTP spans, the same ones OTEL_EXPORTER_OTLP_ENDPOINT exports live",
        arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
        options: {
          endpoint: {
            flags: "--endpoint <url>",
            description:
              "the collector's OTLP/HTTP endpoint (/v1/traces is added); default OTEL_EXPORTER_OTLP_ENDPOINT",
          },
          forksOf: FORKS_OF_OPTION,
        },
        examples: [
          "uwf trace export 01J9 --endpoint http://localhost:4318",
          "uwf trace export --forks-of 01J9 --json",
          "uwf list --status ended --json | jq -r '.threads[].id' | uwf trace export -",
        ],
        json: "traceExportResultSchema",
        load: async () => (await import("../trace/export.ts")).traceExportCommand,
      }),
    ],
    examples: ["uwf trace export 01J9 --endpoint http://localhost:4318"],
  },
  {
    name: "scenario",
    description: "recorded threads as scenarios for the scripted agent: export",
    commands: [
      defineCommand({
        name: "export",
        description: "write threads' recorded replies as a scenario that `uwf run --agent scripted:FILE` plays back",
        arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
        options: {
          forksOf: FORKS_OF_OPTION,
          output: {
            flags: "-o, --output <file>",
            description: "write the scenario to FILE (JSON if it ends in .json, else YAML) instead of stdout",
            completes: "file",
          },
        },
        examples: [
          "uwf scenario export 01J9 -o review.scenario.yaml",
          "uwf scenario export --forks-of 01J9 -o family.scenario.json",
        ],
        json: "scenarioDocumentSchema, or scenarioExportResultSchema with -o",
        load: async () => (await import("../scenario/export.ts")).scenarioExportCommand,
      }),
    ],
    examples: ["uwf scenario export 01J9 -o review.scenario.yaml"],
  },
  defineCommand({
    name: "replay",
    description:
      "re-route threads' recorded replies through another workflow, running no agent and writing nothing; exit 1 when one diverges",
    arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
    options: {
      workflow: {
        flags: "--workflow <file-or-name>",
        description: "the workflow to replay through: a file, a registered name or an address",
        required: true,
        completes: "workflow",
      },
      forksOf: {
        flags: "--forks-of <thread>",
        description: "also this thread and its forks, at any depth",
        completes: "thread",
      },
    },
    examples: [
      "uwf replay 01J9 --workflow review.yaml",
      "uwf replay --forks-of 01J9 --workflow review",
      "uwf list --workflow review --limit 0 --json | jq -r '.threads[].id' | uwf replay - --workflow review.yaml",
    ],
    json: "replayResultSchema",
    load: async () => (await import("../replay.ts")).replayCommand,
  }),
];
