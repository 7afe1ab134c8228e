import type { HelpTopicResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import {
  BATCH_EXIT_CODE_ORDER,
  EXIT_BUSY,
  EXIT_CODE_BY_ERROR_CODE,
  EXIT_ENDED,
  EXIT_FAILED,
  EXIT_GATE_FAILED,
  EXIT_HANGUP,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_STDOUT_CLOSED,
  EXIT_SUSPENDED,
  EXIT_USAGE,
  type ExitCode,
} from "../../exit-codes.ts";
import { HELP_TOPICS } from "../help-topics.ts";
import { type CommandTable, isCommandGroup } from "../table/define-command.ts";

/**
 * `uwf help exit-codes`, `uwf help json`: what no single command's help says. The table it describes
 * is given by the table's own entry for `help`, which imports this module only when it runs.
 */
export function helpTopicCommand(table: CommandTable) {
  return async (options: { words: string[] }) => {
    const [topic] = options.words;
    const write = topic === undefined || options.words.length > 1 ? undefined : topicText(topic, table);
    if (write === undefined) {
      const names = HELP_TOPICS.map((known) => known.name).join(", ");
      throw new UsageError(`help ${options.words.join(" ")}: no such command or topic (topics: ${names})`, {
        words: options.words,
      });
    }
    const result: HelpTopicResult = { topic: topic as string, text: write() };
    return { result, format: (value: HelpTopicResult) => value.text };
  };
}

function topicText(topic: string, table: CommandTable): (() => string) | undefined {
  if (topic === "exit-codes") return exitCodesText;
  if (topic === "json") return () => jsonText(table);
  return undefined;
}

/** What each exit code means; the error codes behind each come from EXIT_CODE_BY_ERROR_CODE. */
const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [EXIT_OK]: "done; `wait`, `log --follow`: every thread ended",
  [EXIT_FAILED]:
    "failed: an agent failed (the thread is set failed), a reply stayed invalid, a workflow or config is invalid, not found, corrupt; `wait`, `log --follow`: a thread failed or was cancelled; `replay`: a thread diverged",
  [EXIT_USAGE]: "usage: unknown flag, bad value, malformed address, ambiguous or unknown prefix, refused start inputs",
  [EXIT_GATE_FAILED]: "`eval`: the report's gate did not hold (it is still printed and stored)",
  [EXIT_ENDED]: "nothing to do: `step` of a thread that has ended",
  [EXIT_SUSPENDED]: "the thread is suspended and waits for `uwf resume` (`wait`: one is, none failed)",
  [EXIT_BUSY]: "busy or conflict: another process is stepping the thread, the head moved meanwhile; wait timed out",
  [EXIT_HANGUP]: "hung up: the terminal closed during a step (the thread is unchanged)",
  [EXIT_INTERRUPTED]: "interrupted by Ctrl-C or SIGTERM (the thread is unchanged)",
  [EXIT_STDOUT_CLOSED]: "stdout was closed by its reader (`uwf read T | head`): nothing is printed",
};

/** Error code lists are wrapped to this many columns. */
const WIDTH = 100;

function exitCodesText(): string {
  const errorCodes = Object.entries(EXIT_CODE_BY_ERROR_CODE);
  const rows = Object.entries(EXIT_CODE_MEANINGS)
    .sort(([left], [right]) => Number(left) - Number(right))
    .flatMap(([exit, meaning]) => {
      const codes = errorCodes.filter(([, code]) => code === Number(exit)).map(([name]) => name);
      const row = `  ${exit.padStart(3)}  ${meaning}`;
      return codes.length === 0 ? [row] : [row, ...wrap(`error codes: ${codes.join(", ")}`, "       ")];
    });
  return [
    "Exit codes",
    "",
    ...rows,
    "",
    'Under --json an error is one document on stderr, {"error":{"code","message","data"}}: scripts',
    "match on its code. docs/cli.md says when each error code happens.",
    "",
    "A script can step a thread to its end and tell why it stopped:",
    '  code=0; while [ $code -eq 0 ]; do uwf step "$T" -q; code=$?; done',
    "",
    "A batch (uwf step T1 T2 …, - or --parallel K) exits 0 when every thread ended (or ran its -n",
    "steps), else with the most severe of its threads' codes, in this order:",
    `  ${BATCH_EXIT_CODE_ORDER.join(" > ")}`,
    "A thread left unfinished by --batch-max-cost counts as suspended (20).",
  ].join("\n");
}

/** Words wrapped to WIDTH columns, each line indented. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return line === "" ? lines : [...lines, indent + line];
}

function jsonText(table: CommandTable): string {
  const rows: Array<[string, string]> = [];
  for (const entry of table) {
    const commands = isCommandGroup(entry)
      ? entry.commands.map((command) => [`${entry.name} ${command.name}`, command] as const)
      : [[entry.name, entry] as const];
    if (entry.name === "thread") continue;
    for (const [name, command] of commands) {
      if (command.json !== undefined && command.hidden !== true) rows.push([`uwf ${name}`, command.json]);
    }
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    "--json",
    "",
    "With --json a command prints exactly one JSON document on stdout and nothing else there. Its",
    "shape is a zod schema exported by @uwf/protocol:",
    "",
    ...rows.map(([name, schema]) => `  ${name.padEnd(width)}  ${schema}`),
    "",
    'An error is one document on stderr instead: {"error":{"code":"…","message":"…","data":{…}}}',
    "(errorResultSchema), with the exit code `uwf help exit-codes` lists. Threads are named by a",
    "`thread` key. Warnings and progress never go to stdout, and --json silences notes. When run,",
    "step or resume fails after some steps, its document still lists them, beside an `error`.",
    "",
    "With --jsonl, run, step, resume and log --follow print NDJSON instead: one event per line as",
    "it happens (step-started, step-finished, step-failed, thread-ended, thread-suspended, and",
    "thread-stopped for a batch's thread it started no more steps of; each event has `type` and",
    "`thread`, and cliEventSchema covers them all). uwf worker prints those with a `worker` field,",
    "and its own: worker-started, thread-claimed, step-retry, thread-failed, thread-released,",
    "suspension-timed-out (a suspension past its suspendTimeout) and worker-stopped. Other",
    "commands print their document as one line.",
  ].join("\n");
}
