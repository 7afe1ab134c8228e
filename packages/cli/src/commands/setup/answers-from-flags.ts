import { DEFAULT_MODEL } from "@uwf/agent-kit";
import { UsageError } from "../../errors/usage-error.ts";
import { readStdin } from "../../read-input-file.ts";
import { checkName, checkVariable, defaultKeyVariable, emptyToUndefined } from "./check-setup-values.ts";
import type { BuiltinSetupAgent, SetupAnswers, SetupOptions } from "./setup-options.ts";

/**
 * The built-in agent's settings from the flags, their defaults filled in; `--api-key -` reads stdin.
 * The openai agent has no default model (servers differ): `--model` is required with it.
 */
export async function answersFromFlags(options: SetupOptions, type: BuiltinSetupAgent): Promise<SetupAnswers> {
  const provider = checkName(options.provider ?? type, "--provider");
  const model = emptyToUndefined(options.model);
  if (type === "openai" && model === undefined) {
    throw new UsageError("--agent openai needs --model: the model name your server knows (e.g. --model gpt-5-mini)");
  }
  let apiKey = options.apiKey;
  if (apiKey === "-") {
    const read = await readStdin();
    if (!read.success) throw new UsageError(`--api-key - (stdin) ${read.problem}`);
    apiKey = read.value.trim();
  }
  if (apiKey !== undefined && apiKey.trim() === "") throw new UsageError("--api-key is empty");
  if (apiKey !== undefined && /[\r\n]/.test(apiKey.trim())) throw new UsageError("--api-key must be a single line");
  return {
    type,
    provider,
    baseUrl: emptyToUndefined(options.baseUrl),
    apiKeyEnv: checkVariable(options.apiKeyEnv ?? defaultKeyVariable(provider)),
    apiKey: apiKey?.trim(),
    model: model ?? DEFAULT_MODEL,
    verify: options.verify !== false,
  };
}
