import { asEnvironmentError } from "@uwf/engine";
import { InternalError, isUwfError, type UwfErrorJson } from "@uwf/protocol";
import { cutMessage, describeError } from "../describe-error.ts";
import { StdoutClosedError } from "../errors/stdout-closed-error.ts";
import { EXIT_FAILED, EXIT_USAGE, type ExitCode, exitCodeForError } from "../exit-codes.ts";
import { escapeControlCharacters } from "../format/text/escape-control-characters.ts";
import { messageWithHint } from "../hint-for.ts";
import { stderrIsTerminal } from "../terminal/standard-streams.ts";

/**
 * Prints an error as one line (or one JSON document under `--json`) on stderr; returns its exit code.
 * A file system's refusal (full, read-only, no permission) is reported as an EnvironmentError; a
 * closed stdout prints nothing, as `git log | head` does.
 */
export function reportError(thrown: unknown, json: boolean): ExitCode {
  // A write to a stdout whose reader went away outside writeStdout (commander's help: `uwf --help | head`).
  if ((thrown as NodeJS.ErrnoException | null)?.code === "EPIPE") return exitCodeForError(StdoutClosedError.code);
  const error = asEnvironmentError(thrown) ?? thrown;
  // An InternalError is a fault of uwf's own, reported below as any error uwf did not expect.
  if (isUwfError(error) && error.code !== InternalError.code) {
    if (error.code === StdoutClosedError.code) return exitCodeForError(error.code);
    if (json) process.stderr.write(`${JSON.stringify({ error: describeError(error) })}\n`);
    else process.stderr.write(`uwf: ${forStderr(cutMessage(messageWithHint(error)))}\n`);
    return exitCodeForError(error.code);
  }
  const commanderCode = (error as { code?: unknown })?.code;
  if (typeof commanderCode === "string" && commanderCode.startsWith("commander.")) {
    // commander has already printed its own message for usage errors (unless --json silenced it).
    const exitCode = (error as { exitCode?: number }).exitCode ?? EXIT_USAGE;
    if (exitCode === 0) return 0;
    if (json) {
      const message = cutMessage((error as Error).message.replace(/^error: /, ""));
      const usage: UwfErrorJson = { code: "usage", message, data: {} };
      process.stderr.write(`${JSON.stringify({ error: usage })}\n`);
    }
    return EXIT_USAGE;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: describeError(error) })}\n`);
  } else {
    process.stderr.write(`uwf: internal error (please report): ${forStderr(cutMessage(message))}\n`);
  }
  return EXIT_FAILED;
}

/** A message for stderr, escaped when that is a terminal: it may quote what an agent wrote (its stderr). */
function forStderr(text: string): string {
  return stderrIsTerminal() ? escapeControlCharacters(text) : text;
}
