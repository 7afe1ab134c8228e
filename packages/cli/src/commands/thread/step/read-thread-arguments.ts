import { UsageError } from "../../../errors/usage-error.ts";
import { readStdin } from "../../../read-input-file.ts";

/** The thread arguments with `-` replaced by stdin's lines (blank ones skipped, spaces trimmed). */
export async function readThreadArguments(threads: readonly string[], whenNone: string): Promise<string[]> {
  if (threads.filter((thread) => thread === "-").length > 1) throw new UsageError("give - once: it reads stdin");
  const references: string[] = [];
  for (const thread of threads) {
    if (thread !== "-") references.push(thread);
    else {
      const read = await readStdin();
      if (!read.success) throw new UsageError(`- (stdin) ${read.problem}`);
      const lines = read.value.split("\n").map((line) => line.trim());
      references.push(...lines.filter((line) => line !== ""));
    }
  }
  if (references.length === 0) throw new UsageError(whenNone);
  return references;
}
