import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes the prompt to a private temp file for the duration of `use`, then removes it. */
export async function withPromptFile<Value>(
  prompt: string,
  use: (promptFile: string) => Promise<Value>,
): Promise<Value> {
  const directory = await mkdtemp(join(tmpdir(), "uwf-prompt-"));
  try {
    const promptFile = join(directory, "prompt.md");
    await writeFile(promptFile, prompt, { mode: 0o600 });
    return await use(promptFile);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
