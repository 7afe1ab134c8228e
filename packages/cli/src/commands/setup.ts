import {
  checkClaudeCode,
  configFilePath,
  DEFAULT_API_KEY_ENV,
  DEFAULT_MODEL,
  loadConfig,
  ModelAccessError,
  readApiKey,
  setConfigValue,
  verifyModelAccess,
  writeDotenvValue,
} from "@uwf/agent-kit";
import { ClaudeCodeUnavailableError } from "../errors/claude-code-unavailable-error.ts";
import { SetupCancelledError } from "../errors/setup-cancelled-error.ts";
import { UsageError } from "../errors/usage-error.ts";
import type { CommandContext } from "../pipeline/command-context.ts";
import { readStdin } from "../read-input-file.ts";

/** The agents `uwf setup` can make the default. */
export const SETUP_AGENTS = ["anthropic", "claude-code"] as const;
export type SetupAgent = (typeof SETUP_AGENTS)[number];

/** `uwf setup` where it cannot ask (no terminal on stdin, or `--json`) and no setting was given. */
const NO_TERMINAL_MESSAGE =
  "uwf setup asks its questions on a terminal; without one, give the settings as flags: " +
  "--agent anthropic|claude-code, --provider NAME, --base-url URL, --api-key-env VARIABLE, " +
  "--api-key KEY (- reads stdin), --model MODEL, --no-verify (e.g. uwf setup --api-key-env ANTHROPIC_API_KEY)";

export interface SetupOptions {
  provider?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** A key to store in the home's `.env`; `-` reads it from stdin. */
  apiKey?: string;
  model?: string;
  agent?: string;
  /** `--no-verify` sets this to false. */
  verify?: boolean;
}

interface SetupAnswers {
  provider: string;
  baseUrl: string | undefined;
  apiKeyEnv: string;
  apiKey: string | undefined;
  model: string;
  verify: boolean;
}

export type SetupResult = AnthropicSetupResult | ClaudeCodeSetupResult;

/** `uwf setup` for the built-in agent: a provider, its key, the default model. */
export interface AnthropicSetupResult {
  configFile: string;
  provider: string;
  baseUrl: string | null;
  apiKeyEnv: string;
  /** Where the key is: the environment, the home's `.env` (mode 0600), or nowhere yet. Never the key itself. */
  keySource: "environment" | "dotenv" | "missing";
  dotenvFile: string | null;
  model: string;
  agent: "anthropic";
  /** True when one minimal request succeeded, null when not checked (`--no-verify`). */
  verified: boolean | null;
}

/** `uwf setup --agent claude-code`: the preset as default agent; Claude Code signs in on its own. */
export interface ClaudeCodeSetupResult {
  configFile: string;
  agent: "claude-code";
  /** The program the preset runs: its `command`, else `claude` from PATH. */
  command: string;
  /** The preset's `--model`, or null for Claude Code's own default. */
  model: string | null;
  /** What `claude --version` printed; null when not checked (`--no-verify`). */
  version: string | null;
  /** True when `claude --version` ran, null when not checked. */
  verified: boolean | null;
}

/**
 * `uwf setup`: writes a provider, the API key's variable, the default model and
 * the default agent into config.yaml (keeping the file's other settings and
 * comments). A key given directly goes to `.env` in the home, readable by the
 * user only, and is never printed. Asks interactively when stdin is a terminal
 * and no setting was given as a flag (without a terminal and without flags it
 * is a usage error naming them: nothing is written); then checks the key with one minimal
 * request unless `--no-verify`. A failed check throws `ModelAccessError` after
 * writing, so the settings can be fixed one by one with `uwf config set`.
 * With the `claude-code` agent there is no provider or key to ask about (see
 * `setupClaudeCode`).
 */
export async function setupCommand(
  options: SetupOptions,
  context: CommandContext,
): Promise<{ result: SetupResult; format: (result: SetupResult) => string }> {
  const flagsGiven = [
    options.provider,
    options.baseUrl,
    options.apiKeyEnv,
    options.apiKey,
    options.model,
    options.agent,
  ];
  const noSettings = flagsGiven.every((flag) => flag === undefined);
  const interactive = Boolean(process.stdin.isTTY) && !context.json && noSettings;
  // Nothing to ask with and nothing given: writing defaults would leave a config no one chose.
  if (!interactive && noSettings) throw new UsageError(NO_TERMINAL_MESSAGE);
  const agent = interactive ? await askAgent() : checkAgent(options.agent ?? "anthropic");
  if (agent === "claude-code") return setupClaudeCode(options, context, interactive);
  const answers = interactive ? await askAnswers(options) : await answersFromFlags(options);

  const providerEntry: Record<string, string> = { type: "anthropic", apiKeyEnv: answers.apiKeyEnv };
  if (answers.baseUrl !== undefined) providerEntry.baseUrl = answers.baseUrl;
  await setConfigValue(context.home, `providers.${answers.provider}`, JSON.stringify(providerEntry));
  const existing = await loadConfig(context.home);
  const modelAlias = Object.hasOwn(existing.models, answers.model) ? answers.model : aliasFor(answers.model);
  if (!Object.hasOwn(existing.models, answers.model)) {
    await setConfigValue(
      context.home,
      `models.${modelAlias}`,
      JSON.stringify({ provider: answers.provider, model: answers.model }),
    );
  }
  await setConfigValue(context.home, "defaultModel", JSON.stringify(modelAlias));
  const agentSpec = { builtin: "anthropic" };
  const configured = existing.agents.anthropic;
  // An agent of that name and kind stays as it is (with its maxTurns, model...).
  if (configured === undefined || JSON.stringify(agentKind(configured)) !== JSON.stringify(agentSpec)) {
    await setConfigValue(context.home, "agents.anthropic", JSON.stringify(agentSpec));
  }
  const config = await setConfigValue(context.home, "defaultAgent", "anthropic");

  let dotenvFile: string | null = null;
  if (answers.apiKey !== undefined)
    dotenvFile = await writeDotenvValue(context.home, answers.apiKeyEnv, answers.apiKey);
  const key = await readApiKey(answers.apiKeyEnv, context.home, context.env);
  const result: AnthropicSetupResult = {
    configFile: configFilePath(context.home),
    provider: answers.provider,
    baseUrl: answers.baseUrl ?? null,
    apiKeyEnv: answers.apiKeyEnv,
    keySource: key === null ? "missing" : key.source,
    dotenvFile,
    model: modelAlias,
    agent: "anthropic",
    verified: null,
  };
  if (answers.verify) {
    const check = await verifyModelAccess({
      config,
      home: context.home,
      model: modelAlias,
      environment: context.env,
      signal: context.signal,
    });
    if (!check.success) {
      throw new ModelAccessError(
        modelAlias,
        `${check.problem} (${result.configFile} was written; fix the setting and run uwf setup again, or pass --no-verify)`,
      );
    }
    result.verified = true;
  } else if (key === null) {
    context.warn(`${answers.apiKeyEnv} is not set: export it, or run uwf setup --api-key - with the key on stdin`);
  }
  return { result, format: formatSetup };
}

/**
 * Setup for Claude Code: it signs in on its own (`claude /login`, or
 * `ANTHROPIC_API_KEY`) and uwf's providers do not configure it, so nothing is
 * asked. Makes the preset the default agent (an agent `claude-code` that is
 * already the preset keeps its command and args; `--model` sets its model),
 * then checks that `claude --version` runs unless `--no-verify`. A failed
 * check throws `ClaudeCodeUnavailableError` after writing.
 */
async function setupClaudeCode(
  options: SetupOptions,
  context: CommandContext,
  interactive: boolean,
): Promise<{ result: SetupResult; format: (result: SetupResult) => string }> {
  const providerFlags = [options.provider, options.baseUrl, options.apiKeyEnv, options.apiKey];
  if (providerFlags.some((flag) => flag !== undefined)) {
    throw new UsageError(
      "--provider, --base-url, --api-key-env and --api-key set up the built-in anthropic agent; " +
        "Claude Code signs in on its own (claude /login, or ANTHROPIC_API_KEY)",
    );
  }
  if (interactive) (await import("@clack/prompts")).outro("Writing config.yaml", { output: process.stderr });
  const existing = await loadConfig(context.home);
  const configured = existing.agents["claude-code"];
  const model = emptyToUndefined(options.model);
  if (configured === undefined || !("preset" in configured) || configured.preset !== "claude-code") {
    const spec = model === undefined ? { preset: "claude-code" } : { preset: "claude-code", model };
    await setConfigValue(context.home, "agents.claude-code", JSON.stringify(spec));
  } else if (model !== undefined) {
    await setConfigValue(context.home, "agents.claude-code.model", JSON.stringify(model));
  }
  const config = await setConfigValue(context.home, "defaultAgent", "claude-code");
  const agent = config.agents["claude-code"];
  const preset = agent !== undefined && "preset" in agent ? agent : undefined;
  const result: ClaudeCodeSetupResult = {
    configFile: configFilePath(context.home),
    agent: "claude-code",
    command: preset?.command ?? "claude",
    model: preset?.model ?? null,
    version: null,
    verified: null,
  };
  if (options.verify !== false) {
    const check = await checkClaudeCode({ command: result.command, cwd: context.cwd, signal: context.signal });
    if (!check.success) {
      throw new ClaudeCodeUnavailableError(
        result.command,
        `${check.problem} (${result.configFile} was written; fix it and run uwf setup --agent claude-code again, or pass --no-verify)`,
      );
    }
    result.version = check.version;
    result.verified = true;
  }
  return { result, format: formatSetup };
}

async function answersFromFlags(options: SetupOptions): Promise<SetupAnswers> {
  const provider = checkName(options.provider ?? "anthropic", "--provider");
  let apiKey = options.apiKey;
  if (apiKey === "-") {
    const read = await readStdin();
    if (!read.success) throw new UsageError(`--api-key - (stdin) ${read.problem}`);
    apiKey = read.value.trim();
  }
  if (apiKey !== undefined && apiKey.trim() === "") throw new UsageError("--api-key is empty");
  return {
    provider,
    baseUrl: emptyToUndefined(options.baseUrl),
    apiKeyEnv: checkVariable(options.apiKeyEnv ?? defaultKeyVariable(provider)),
    apiKey: apiKey?.trim(),
    model: emptyToUndefined(options.model) ?? DEFAULT_MODEL,
    verify: options.verify !== false,
  };
}

/** The first question, on stderr (stdout keeps the result). @clack/prompts is loaded only when asking. */
async function askAgent(): Promise<SetupAgent> {
  const prompts = await import("@clack/prompts");
  prompts.intro("uwf setup", { output: process.stderr });
  return answerOf(
    prompts,
    await prompts.select<SetupAgent>({
      message: "Which agent should play roles by default?",
      options: [
        { value: "anthropic", label: "anthropic", hint: "uwf's built-in agent on the Messages API" },
        { value: "claude-code", label: "claude-code", hint: "the Claude Code CLI (claude), run headless" },
      ],
      output: process.stderr,
    }),
  );
}

/** The built-in agent's questions: provider, key, model. */
async function askAnswers(options: SetupOptions): Promise<SetupAnswers> {
  const prompts = await import("@clack/prompts");
  const output = process.stderr;
  const answer = <Value>(value: Value): Exclude<Value, symbol> => answerOf(prompts, value);
  const provider = checkName(
    answer(
      await prompts.text({ message: "Provider name", defaultValue: "anthropic", placeholder: "anthropic", output }),
    ),
    "provider",
  );
  const baseUrl = emptyToUndefined(
    answer(
      await prompts.text({
        message: "Base URL (empty for the Anthropic API; a gateway's URL otherwise)",
        defaultValue: "",
        placeholder: "https://api.anthropic.com",
        output,
      }),
    ),
  );
  const apiKeyEnv = checkVariable(
    answer(
      await prompts.text({
        message: "Environment variable holding the API key",
        defaultValue: defaultKeyVariable(provider),
        placeholder: defaultKeyVariable(provider),
        output,
      }),
    ),
  );
  const store = answer(
    await prompts.confirm({
      message: `Store a key in the uwf home's .env (readable only by you)? No: you export ${apiKeyEnv} yourself.`,
      initialValue: process.env[apiKeyEnv] === undefined,
      output,
    }),
  );
  const apiKey = store ? answer(await prompts.password({ message: "API key", output })).trim() : undefined;
  const model = answer(
    await prompts.text({ message: "Default model", defaultValue: DEFAULT_MODEL, placeholder: DEFAULT_MODEL, output }),
  );
  const verify =
    options.verify === false
      ? false
      : answer(await prompts.confirm({ message: "Check the key with one small request now?", output }));
  prompts.outro("Writing config.yaml", { output });
  return { provider, baseUrl, apiKeyEnv, apiKey: emptyToUndefined(apiKey), model: model.trim(), verify };
}

/** A prompt's answer; a cancelled prompt (Ctrl-C) stops setup before anything is written. */
function answerOf<Value>(prompts: typeof import("@clack/prompts"), value: Value): Exclude<Value, symbol> {
  if (prompts.isCancel(value)) {
    prompts.cancel("Setup cancelled; nothing was written.", { output: process.stderr });
    throw new SetupCancelledError();
  }
  return value as Exclude<Value, symbol>;
}

function formatSetup(result: SetupResult): string {
  if (result.agent === "claude-code") {
    return [
      `Wrote ${result.configFile}`,
      `  agent     claude-code (defaultAgent), runs ${result.command}`,
      `  model     ${result.model ?? "Claude Code's default"}`,
      result.verified === true ? `Claude Code runs: ${result.version}.` : "Claude Code was not checked.",
      "Claude Code signs in on its own: claude /login, or ANTHROPIC_API_KEY in its environment.",
    ].join("\n");
  }
  const key =
    result.keySource === "dotenv"
      ? `in ${result.apiKeyEnv}, stored in ${result.dotenvFile ?? "the home's .env"} (mode 0600)`
      : result.keySource === "environment"
        ? `in ${result.apiKeyEnv} (from the environment)`
        : `${result.apiKeyEnv} is not set yet: export ${result.apiKeyEnv}=…`;
  return [
    `Wrote ${result.configFile}`,
    `  provider  ${result.provider}${result.baseUrl === null ? "" : ` at ${result.baseUrl}`}`,
    `  key       ${key}`,
    `  model     ${result.model} (defaultModel)`,
    `  agent     ${result.agent} (defaultAgent)`,
    result.verified === true ? "The key works: the model answered." : "The key was not checked.",
  ].join("\n");
}

function agentKind(spec: object): Record<string, unknown> {
  if ("builtin" in spec) return { builtin: spec.builtin };
  if ("preset" in spec) return { preset: spec.preset };
  return { command: true };
}

/** `ANTHROPIC_API_KEY` for the anthropic provider, else `<PROVIDER>_API_KEY`. */
function defaultKeyVariable(provider: string): string {
  if (provider === "anthropic") return DEFAULT_API_KEY_ENV;
  return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** A `models` alias for a model id: the id itself when it makes a plain config key. */
function aliasFor(model: string): string {
  return model.replace(/[^A-Za-z0-9_-]+/g, "-");
}

function checkName(value: string, what: string): string {
  const name = value.trim();
  if (!/^[A-Za-z0-9_-]+$/.test(name))
    throw new UsageError(`${what} must be a plain name (letters, digits, - and _), got "${value}"`);
  return name;
}

function checkVariable(value: string): string {
  const name = value.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`"${value}" is not an environment variable name`);
  return name;
}

function checkAgent(value: string): SetupAgent {
  if ((SETUP_AGENTS as readonly string[]).includes(value)) return value as SetupAgent;
  throw new UsageError(`--agent must be one of ${SETUP_AGENTS.join(", ")}, got "${value}"`);
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
