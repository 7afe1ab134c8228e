import type { CompletionScriptResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import { COMPLETION_SCRIPTS, type Shell } from "./completion-scripts.ts";

/** `uwf completion bash|zsh|fish`: the script that makes the shell complete uwf's command lines. */
export async function completionCommand(options: { shell: string }) {
  if (!Object.hasOwn(COMPLETION_SCRIPTS, options.shell)) {
    throw new UsageError(`completion ${options.shell}: expected one of ${Object.keys(COMPLETION_SCRIPTS).join(", ")}`, {
      shell: options.shell,
    });
  }
  const shell = options.shell as Shell;
  const result: CompletionScriptResult = { shell, script: COMPLETION_SCRIPTS[shell] };
  return { result, format: (value: CompletionScriptResult) => value.script };
}
