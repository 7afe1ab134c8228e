/**
 * The one printer. Data goes to stdout, each piece written (and so flushed) as it is printed:
 * `--json` prints the result as one JSON document; `--jsonl` prints events as NDJSON, one per line,
 * as they happen, and the result of a command that emits none as one line; text prints an event's
 * line as it happens, then the command's human formatting of its result. Text for a terminal is
 * formatted from the data with its control characters escaped (`\x1b`), as gh does: what an agent
 * wrote (a body, a reply, a stderr tail, a reason) cannot clear the screen or set the clipboard;
 * `--json`, `--jsonl` and text piped elsewhere carry it as it is.
 */
import type { CliEvent } from "@uwf/protocol";
import { escapeControlCharactersIn } from "../format/text/escape-control-characters.ts";
import { stdoutIsTerminal, writeStdout } from "../terminal/standard-streams.ts";
import type { EmitOptions } from "./command-context.ts";

export type OutputMode = "text" | "json" | "jsonl";

export async function printResult<Result>(
  result: Result,
  mode: OutputMode,
  format: (result: Result) => string,
  options: { streamed: boolean; paged?: boolean },
): Promise<void> {
  if (mode === "jsonl" && options.streamed) return;
  const text = mode === "text" ? format(forTerminal(result)) : JSON.stringify(result);
  if (mode === "text" && options.paged === true) {
    // Loaded only by the commands that page (`read`).
    const { pageOutput } = await import("../terminal/page-output.ts");
    if (await pageOutput(text.endsWith("\n") ? text : `${text}\n`, process.env)) return;
  }
  await printLine(text);
}

export async function printEvent(
  event: CliEvent,
  mode: OutputMode,
  color: boolean,
  options: EmitOptions = {},
): Promise<void> {
  if (mode === "json") return;
  if (mode === "jsonl") return printLine(JSON.stringify(event));
  // Loaded only by the commands that emit: every step is a new process.
  const { formatEvent } = await import("../format/events/format-event.ts");
  await printLine(formatEvent(forTerminal(event), color, options));
}

/** Data about to be shown as text: escaped when stdout is a terminal (the colours are added after). */
function forTerminal<Data>(data: Data): Data {
  return stdoutIsTerminal() ? escapeControlCharactersIn(data) : data;
}

async function printLine(text: string): Promise<void> {
  if (text.length > 0) await writeStdout(text.endsWith("\n") ? text : `${text}\n`);
}
