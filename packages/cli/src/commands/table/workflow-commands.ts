import { type CommandEntry, type CommandGroup, defineCommand } from "./define-command.ts";

const WORKFLOW_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "add",
    description: "register a workflow file, - for stdin (prints its name and hash)",
    arguments: [{ syntax: "<file>", key: "file", completes: "file" }],
    examples: ["uwf workflow add review.yaml"],
    json: "workflowAddResultSchema",
    load: async () => (await import("../workflow/add.ts")).workflowAddCommand,
  }),
  defineCommand({
    name: "validate",
    description: "check a workflow file (- for stdin); prints every problem, exit 1 when invalid",
    arguments: [{ syntax: "<file>", key: "file", completes: "file" }],
    examples: ["uwf workflow validate review.yaml"],
    json: "workflowValidateResultSchema",
    load: async () => (await import("../workflow/validate.ts")).workflowValidateCommand,
  }),
  defineCommand({
    name: "show",
    description: "show a workflow by name, hash or file",
    arguments: [{ syntax: "<workflow>", key: "reference", completes: "workflow" }],
    options: { mermaid: { flags: "--mermaid", description: "print a Mermaid flowchart of the graph" } },
    examples: ["uwf workflow show review", "uwf workflow show review.yaml --mermaid"],
    json: "workflowShowResultSchema",
    load: async () => (await import("../workflow/show.ts")).workflowShowCommand,
  }),
  defineCommand({
    name: "new",
    description:
      "write NAME.yaml, a starter workflow (a model role, a shell check, a fan-out, a person's approval), and NAME.scenario.yaml, which runs it offline",
    arguments: [{ syntax: "<name>", key: "name" }],
    examples: ["uwf workflow new ship", "uwf run ship.yaml -p 'Add a flag' --agent scripted:ship.scenario.yaml"],
    json: "workflowNewResultSchema",
    load: async () => (await import("../workflow/new.ts")).workflowNewCommand,
  }),
  defineCommand({
    name: "list",
    description: "registered workflows and those in the project's .uwf/workflows/",
    options: {
      threads: {
        flags: "--threads",
        description: "also the versions the newest 1000 threads run that the registry no longer names",
      },
    },
    examples: ["uwf workflow list", "uwf workflow list --threads"],
    json: "workflowListResultSchema",
    load: async () => (await import("../workflow/list.ts")).workflowListCommand,
  }),
];

export const WORKFLOW_GROUP: CommandGroup = {
  name: "workflow",
  description: "add, validate, show and list workflows",
  commands: WORKFLOW_COMMANDS,
  examples: ["uwf workflow add review.yaml", "uwf workflow list"],
};
