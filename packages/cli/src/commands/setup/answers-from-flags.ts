import { DEFAULT_MODEL } from "@uwf/agents";
import { UsageError } from "../../errors/usage-error.ts";
import { readStdin } from "../../read-input-file.ts";
import { checkName, checkVariable, defaultKeyVariable, emptyToUndefined } from "./check-setup-values.ts";
import type { SetupAnswers, SetupOptions } from "./setup-options.ts";

/** The built-in agent's settings from the flags, their defaults filled in; `--api-key -` reads stdin. */
export async function answersFromFlags(options: SetupOptions): Promise<SetupAnswers> {
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
