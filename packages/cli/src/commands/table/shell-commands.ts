import { type CommandTable, defineCommand, withoutOptions } from "./define-command.ts";

/** `uwf completion`, `__complete`, `version` and `help`: TABLE gives the table completion and help walk. */
export function shellCommands(table: () => CommandTable): CommandTable {
  return [
    defineCommand({
      name: "completion",
      description: "print a completion script for bash, zsh or fish",
      arguments: [{ syntax: "<shell>", key: "shell", completes: ["bash", "zsh", "fish"] }],
      examples: ["source <(uwf completion bash)", "source <(uwf completion zsh)", "uwf completion fish | source"],
      json: "completionScriptResultSchema",
      load: async () => (await import("../completion/completion.ts")).completionCommand,
    }),
    defineCommand({
      name: "__complete",
      description: "what the completion scripts call: candidates for the last word",
      arguments: [{ syntax: "[words...]", key: "words" }],
      examples: [],
      json: "completionCandidatesResultSchema",
      hidden: true,
      load: async () => (await import("../completion/complete.ts")).completeCommand(table()),
    }),
    defineCommand({
      name: "version",
      description: "uwf's version, the Bun it runs on and the store schema version",
      examples: ["uwf version", "uwf version --json"],
      json: "versionResultSchema",
      load: async () => withoutOptions((await import("../version.ts")).versionCommand),
    }),
    defineCommand({
      name: "help",
      description: "help for a command, or a topic: exit-codes, json",
      arguments: [{ syntax: "[command-or-topic...]", key: "words", completes: "command" }],
      examples: ["uwf help step", "uwf help workflow add", "uwf help exit-codes"],
      json: "helpTopicResultSchema",
      load: async () => (await import("../help/help-topic.ts")).helpTopicCommand(table()),
    }),
  ];
}
