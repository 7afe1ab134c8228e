import { configFilePath, loadConfig } from "@uwf/agent-kit";
import { ClaudeCodeUnavailableError } from "../../errors/claude-code-unavailable-error.ts";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { setConfigValues } from "../config/config-values.ts";
import { buildClaudeCodeSettings } from "./build-setup-settings.ts";
import { checkClaudeCode } from "./check-claude-code.ts";
import { emptyToUndefined } from "./check-setup-values.ts";
import { formatSetup } from "./format-setup.ts";
import type { SetupOptions } from "./setup-options.ts";
import type { ClaudeCodeSetupResult, SetupResult } from "./setup-result.ts";

/**
 * Setup for Claude Code: it signs in on its own (`claude /login`, or
 * `ANTHROPIC_API_KEY`) and uwf's providers do not configure it, so nothing is
 * asked. Makes the preset the default agent (an agent `claude-code` that is
 * already the preset keeps its command and args; `--model` sets its model),
 * then checks that `claude --version` runs unless `--no-verify`. A failed
 * check throws `ClaudeCodeUnavailableError` after writing.
 */
export async function setupClaudeCode(
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
  const settings = buildClaudeCodeSettings(emptyToUndefined(options.model), await loadConfig(context.home));
  const config = await setConfigValues(context.home, settings);
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
