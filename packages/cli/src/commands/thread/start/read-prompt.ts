import { UsageError } from "../../../errors/usage-error.ts";
import { readInputFile } from "../../../read-input-file.ts";

export interface ReadPromptOptions {
  /** `-p TEXT`; `-p -` reads stdin. */
  prompt?: string;
  /** `--prompt-file FILE`; `-` reads stdin. */
  promptFile?: string;
  cwd: string;
}

/**
 * The prompt of `start`, `run` or `resume`: exactly one of `-p TEXT`, `-p -` (stdin) or
 * `--prompt-file FILE`, so a prompt of any length gets in (one argument is capped at 128 KiB on
 * Linux). Neither or both is a usage error.
 */
export async function readPrompt(options: ReadPromptOptions): Promise<string> {
  const { prompt, promptFile } = options;
  if (prompt !== undefined && promptFile !== undefined)
    throw new UsageError("give the prompt once: -p TEXT, -p - (stdin) or --prompt-file FILE, not both");
  if (promptFile !== undefined)
    return readInputFile(promptFile, { cwd: options.cwd, label: `--prompt-file ${promptFile}` });
  if (prompt === undefined) throw new UsageError("the prompt is missing: -p TEXT, -p - (stdin) or --prompt-file FILE");
  return prompt === "-" ? readInputFile("-", { cwd: options.cwd, label: "-p -" }) : prompt;
}

/** Whether the prompt comes from stdin, which only one flag can read. */
export function promptReadsStdin(options: Pick<ReadPromptOptions, "prompt" | "promptFile">): boolean {
  return options.prompt === "-" || options.promptFile === "-";
}
