import { type Stats, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { exportScenarios, serializeScenario } from "@uwf/engine";
import type { ScenarioDocument, ScenarioExportResult, ScenarioThread } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

export interface ScenarioExportCommandOptions {
  threads?: string[];
  forksOf?: string;
  /** `-o FILE`: JSON when it ends in `.json`, YAML otherwise. */
  output?: string;
}

/**
 * `uwf scenario export THREAD… [--forks-of T] [-o FILE]`: the threads' recorded replies as a scenario
 * for the `scripted` agent. Without `-o`, the scenario itself is the result (YAML, or JSON under `--json`);
 * with it, the file is written and the result says what it holds and how to play it.
 */
export async function scenarioExportCommand(
  options: ScenarioExportCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ScenarioDocument | ScenarioExportResult>> {
  const threads = options.threads ?? [];
  if (threads.length === 0 && options.forksOf === undefined) {
    throw new UsageError("name the threads to export (THREAD…), or --forks-of THREAD for a thread and its forks");
  }
  const file = options.output === undefined ? null : writableFile(resolve(context.cwd, options.output), options.output);
  const store = await context.openStore({ create: false });
  const exported = await exportScenarios({
    store,
    threads,
    ...(options.forksOf === undefined ? {} : { forksOf: options.forksOf }),
  });
  if (file === null) return { result: exported.document, format: formatOutcome };
  const format = file.endsWith(".json") ? "json" : "yaml";
  writeFileSync(file, serializeScenario(exported.document, format));
  const result: ScenarioExportResult = { file, format, threads: exported.threads.map(summarize) };
  return { result, format: formatOutcome, hint: replayHint(file, exported.threads) };
}

/** The scenario itself as YAML (no `-o`), or what was written where. */
function formatOutcome(value: ScenarioDocument | ScenarioExportResult): string {
  return "file" in value ? formatExportResult(value) : serializeScenario(value, "yaml").trimEnd();
}

/** The `-o` file, checked before anything is read: a file (new or not) in a folder that exists. */
function writableFile(file: string, given: string): string {
  const folder = statOrNull(dirname(file));
  if (folder === null || !folder.isDirectory())
    throw new UsageError(`-o ${given}: the folder ${dirname(file)} does not exist`);
  if (statOrNull(file)?.isDirectory() === true) throw new UsageError(`-o ${given}: ${file} is a folder, not a file`);
  return file;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function summarize(thread: ScenarioThread): ScenarioExportResult["threads"][number] {
  return {
    thread: thread.thread,
    workflow: thread.workflow.name,
    steps: thread.steps.length,
    answers: thread.steps.filter((step) => step.answer !== undefined).length,
  };
}

function formatExportResult(result: ScenarioExportResult): string {
  const lines = [`wrote ${result.file} (${result.format})`];
  for (const thread of result.threads) {
    const answers = thread.answers === 0 ? "" : `, ${thread.answers} ${thread.answers === 1 ? "answer" : "answers"}`;
    lines.push(
      `  ${thread.thread}  ${thread.workflow}  ${thread.steps} ${thread.steps === 1 ? "step" : "steps"}${answers}`,
    );
  }
  return lines.join("\n");
}

/** How to play the file back: the first thread's `uwf run` line (the workflow version it ran, its prompt). */
function replayHint(file: string, threads: readonly ScenarioThread[]): string | undefined {
  const first = threads[0];
  if (first === undefined) return undefined;
  const agent = threads.length === 1 ? `scripted:${file}` : `scripted:${file}#${first.thread}`;
  const inputs = Object.entries(first.inputs ?? {})
    .map(([key, value]) => ` --input ${shellQuote(`${key}=${JSON.stringify(value)}`)}`)
    .join("");
  return `play it back: uwf run ${first.workflow.address} -p ${shellQuote(first.prompt)}${inputs} --agent ${shellQuote(agent)}`;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./#-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
