import { DEFAULT_MODEL } from "@uwf/agent-kit";
import { SetupCancelledError } from "../../errors/setup-cancelled-error.ts";
import { checkName, checkVariable, defaultKeyVariable, emptyToUndefined } from "./check-setup-values.ts";
import type { BuiltinSetupAgent, SetupAgent, SetupAnswers, SetupOptions } from "./setup-options.ts";

/** The first question, on stderr (stdout keeps the result). @clack/prompts is loaded only when asking. */
export async function askAgent(): Promise<SetupAgent> {
  const prompts = await import("@clack/prompts");
  prompts.intro("uwf setup", { output: process.stderr });
  return answerOf(
    prompts,
    await prompts.select<SetupAgent>({
      message: "Which agent should play roles by default?",
      options: [
        { value: "anthropic", label: "anthropic", hint: "uwf's built-in agent on the Messages API" },
        {
          value: "openai",
          label: "openai",
          hint: "uwf's built-in agent on an OpenAI-compatible API: OpenAI, OpenRouter, a gateway, vLLM, llama.cpp, Ollama",
        },
        { value: "claude-code", label: "claude-code", hint: "the Claude Code CLI (claude), run headless" },
      ],
      output: process.stderr,
    }),
  );
}

/** The built-in agent's questions: provider, base URL, key, model (the agent's kind is the provider's type). */
export async function askAnswers(options: SetupOptions, type: BuiltinSetupAgent): Promise<SetupAnswers> {
  const prompts = await import("@clack/prompts");
  const output = process.stderr;
  const answer = <Value>(value: Value): Exclude<Value, symbol> => answerOf(prompts, value);
  const provider = checkName(
    answer(await prompts.text({ message: "Provider name", defaultValue: type, placeholder: type, output })),
    "provider",
  );
  const baseUrl = emptyToUndefined(
    answer(
      await prompts.text({
        message:
          type === "openai"
            ? "Base URL (empty for the OpenAI API; e.g. http://localhost:11434/v1 for Ollama, https://openrouter.ai/api/v1)"
            : "Base URL (empty for the Anthropic API; a gateway's URL otherwise)",
        defaultValue: "",
        placeholder: type === "openai" ? "https://api.openai.com/v1" : "https://api.anthropic.com",
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
    type === "openai"
      ? await prompts.text({
          message: "Default model (the name your server knows)",
          validate: (value) => (value === undefined || value.trim() === "" ? "a model name is needed" : undefined),
          output,
        })
      : await prompts.text({
          message: "Default model",
          defaultValue: DEFAULT_MODEL,
          placeholder: DEFAULT_MODEL,
          output,
        }),
  );
  const verify =
    options.verify === false
      ? false
      : answer(await prompts.confirm({ message: "Check the key with one small request now?", output }));
  prompts.outro("Writing config.yaml", { output });
  return { type, provider, baseUrl, apiKeyEnv, apiKey: emptyToUndefined(apiKey), model: model.trim(), verify };
}

/** A prompt's answer; a cancelled prompt (Ctrl-C) stops setup before anything is written. */
function answerOf<Value>(prompts: typeof import("@clack/prompts"), value: Value): Exclude<Value, symbol> {
  if (prompts.isCancel(value)) {
    prompts.cancel("Setup cancelled; nothing was written.", { output: process.stderr });
    throw new SetupCancelledError();
  }
  return value as Exclude<Value, symbol>;
}
