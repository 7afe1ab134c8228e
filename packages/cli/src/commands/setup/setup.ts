import { configFilePath, loadConfig, readApiKey, verifyModelAccess } from "@uwf/agent-kit";
import { ModelAccessError } from "../../errors/model-access-error.ts";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { setConfigValues } from "../config/config-values.ts";
import { answersFromFlags } from "./answers-from-flags.ts";
import { askAgent, askAnswers } from "./ask-setup-questions.ts";
import { buildBuiltinSettings } from "./build-setup-settings.ts";
import { checkAgent } from "./check-setup-values.ts";
import { formatSetup } from "./format-setup.ts";
import { setupClaudeCode } from "./setup-claude-code.ts";
import type { SetupOptions } from "./setup-options.ts";
import type { AnthropicSetupResult, SetupResult } from "./setup-result.ts";
import { writeDotenvValue } from "./write-dotenv-value.ts";

/** `uwf setup` where it cannot ask (no terminal on stdin, or `--json`) and no setting was given. */
const NO_TERMINAL_MESSAGE =
  "uwf setup asks its questions on a terminal; without one, give the settings as flags: " +
  "--agent anthropic|openai|claude-code, --provider NAME, --base-url URL, --api-key-env VARIABLE, " +
  "--api-key KEY (- reads stdin), --model MODEL, --no-verify (e.g. uwf setup --api-key-env ANTHROPIC_API_KEY)";

/**
 * `uwf setup`: writes a provider, the API key's variable, the default model and
 * the default agent into config.yaml (keeping the file's other settings and
 * comments). A key given directly goes to `.env` in the home, readable by the
 * user only, and is never printed. Asks interactively when stdin is a terminal
 * and no setting was given as a flag (without a terminal and without flags it
 * is a usage error naming them: nothing is written); then checks the key with one minimal
 * request unless `--no-verify`. A failed check throws `ModelAccessError` after
 * writing, so the settings can be fixed one by one with `uwf config set`.
 * The built-in agent chosen (`anthropic`, or `openai` for an OpenAI-compatible server, checked on its
 * `/chat/completions`) is also the provider's type. With the `claude-code` agent there is no provider
 * or key to ask about (see
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
  const answers = interactive ? await askAnswers(options, agent) : await answersFromFlags(options, agent);

  const { settings, modelAlias } = buildBuiltinSettings(answers, await loadConfig(context.home));
  const config = await setConfigValues(context.home, settings);

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
    agent: answers.type,
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
