import { type CommandEntry, type CommandTable, defineCommand, withoutOptions } from "./define-command.ts";

export const INIT_COMMAND: CommandEntry = defineCommand({
  name: "init",
  description: "create a .uwf/ home in the current directory",
  examples: ["uwf init"],
  json: "initResultSchema",
  load: async () => withoutOptions((await import("../init.ts")).initCommand),
});

const KEY_ARGUMENT = { syntax: "<key>", key: "key" } as const;

const CONFIG_SUBCOMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "get",
    description: "print one value (dotted key, e.g. agents.claude)",
    arguments: [KEY_ARGUMENT],
    examples: ["uwf config get defaultModel", "uwf config get agents.claude"],
    json: "configValueResultSchema",
    load: async () => (await import("../config/get.ts")).configGetCommand,
  }),
  defineCommand({
    name: "set",
    description: "set one value (parsed as YAML); an unknown agent, model or provider is refused",
    arguments: [KEY_ARGUMENT, { syntax: "<value>", key: "value" }],
    examples: [
      "uwf config set timeout 600",
      "uwf config set agents.fast '{ builtin: anthropic, model: claude-haiku-4-5 }'",
      "uwf config set defaultAgent fast",
    ],
    json: "configValueResultSchema",
    load: async () => (await import("../config/set.ts")).configSetCommand,
  }),
  defineCommand({
    name: "unset",
    description: "remove one value, so its default applies again",
    arguments: [KEY_ARGUMENT],
    examples: ["uwf config unset defaultModel", "uwf config unset agentOverrides.review.writer"],
    json: "configValueResultSchema",
    load: async () => (await import("../config/unset.ts")).configUnsetCommand,
  }),
  defineCommand({
    name: "list",
    description: "the whole configuration",
    examples: ["uwf config list"],
    json: "configListResultSchema",
    load: async () => withoutOptions((await import("../config/list.ts")).configListCommand),
  }),
];

/** `uwf config` and `uwf setup`. */
export const CONFIG_COMMANDS: CommandTable = [
  {
    name: "config",
    description: "read and change config.yaml",
    commands: CONFIG_SUBCOMMANDS,
    examples: ["uwf config list", "uwf config set defaultModel claude-sonnet-4-5", "uwf config unset defaultModel"],
  },
  defineCommand({
    name: "setup",
    description: "configure a model provider, its API key, the default model and agent (asks on a terminal)",
    options: {
      provider: {
        flags: "--provider <name>",
        description: "provider name in config.yaml (default: the agent's name, anthropic or openai)",
      },
      baseUrl: {
        flags: "--base-url <url>",
        description: "the provider's base URL: a gateway, or an OpenAI-compatible server (…/v1) with --agent openai",
      },
      apiKeyEnv: {
        flags: "--api-key-env <variable>",
        description: "environment variable holding the key (default ANTHROPIC_API_KEY, or OPENAI_API_KEY)",
      },
      apiKey: {
        flags: "--api-key <key>",
        description: "store this key in the home's .env, mode 0600 (- reads it from stdin)",
      },
      model: { flags: "--model <model>", description: "default model: a model id or a models alias" },
      agent: {
        flags: "--agent <agent>",
        description: "default agent: anthropic or openai (built-in; the provider's type), or claude-code",
        completes: ["anthropic", "openai", "claude-code"],
      },
      verify: { flags: "--no-verify", description: "do not check the key with a request" },
    },
    examples: [
      "uwf setup",
      "uwf setup --agent openai --base-url http://localhost:11434/v1 --model qwen3:8b --api-key-env OLLAMA_API_KEY",
      "uwf setup --agent claude-code",
    ],
    load: async () => (await import("../setup/setup.ts")).setupCommand,
  }),
];
