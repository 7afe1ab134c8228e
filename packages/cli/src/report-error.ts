import { isUwfError } from "@uwf/protocol";
import { EXIT_FAILED, EXIT_USAGE, exitCodeForError } from "./exit-codes.ts";

/** Prints an error as one line (or one JSON document under `--json`) on stderr; returns its exit code. */
export function reportError(error: unknown, json: boolean): number {
  if (isUwfError(error)) {
    if (json) process.stderr.write(`${JSON.stringify({ error: error.toJSON() })}\n`);
    else process.stderr.write(`uwf: ${error.message}\n`);
    return exitCodeForError(error.code);
  }
  const commanderCode = (error as { code?: unknown })?.code;
  if (typeof commanderCode === "string" && commanderCode.startsWith("commander.")) {
    // commander has already printed its own message for usage errors (unless --json silenced it).
    const exitCode = (error as { exitCode?: number }).exitCode ?? EXIT_USAGE;
    if (exitCode === 0) return 0;
    if (json) {
      const message = (error as Error).message.replace(/^error: /, "");
      process.stderr.write(`${JSON.stringify({ error: { code: "usage", message, data: {} } })}\n`);
    }
    return EXIT_USAGE;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: { code: "internal", message: String(error), data: {} } })}\n`);
  } else {
    process.stderr.write(`uwf: internal error (please report): ${message}\n`);
  }
  return EXIT_FAILED;
}
