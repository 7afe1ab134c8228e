import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Writes the prompt to a private temp file for the duration of `use`, then removes it, with the
 * folder it is in: `usageFile` names a file there (not created) where the agent may write its usage
 * (`UWF_USAGE_FILE`). Synchronous file calls: a few small ones cost less than a trip through the
 * thread pool, on every step.
 */
export async function withPromptFile<Value>(
  prompt: string,
  use: (promptFile: string, usageFile: string) => Promise<Value>,
): Promise<Value> {
  const directory = mkdtempSync(join(tmpdir(), "uwf-prompt-"));
  try {
    const promptFile = join(directory, "prompt.md");
    writeFileSync(promptFile, prompt, { mode: 0o600 });
    return await use(promptFile, join(directory, "usage.json"));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
