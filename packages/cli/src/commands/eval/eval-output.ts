import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Store } from "@uwf/cas";
import {
  buildEvalResult,
  type EvalBaseline,
  type EvaluateOptions,
  evalOutcomeError,
  renderEvalHtml,
  renderEvalMarkdown,
  renderEvalTable,
  resolveEvalReport,
  type StoredEvalReport,
} from "@uwf/eval";
import type { EvalGate, EvalResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

/** The gate's flags, over a suite's `gate:`. */
export interface GateFlags {
  minPassRate?: number;
  minCasePassRate?: number;
  passK?: number;
  allowErrors?: boolean;
}

/** How a report is shown, besides the table (or `--json`). */
export interface EvalOutputOptions {
  /** Print Markdown to paste into a pull request instead of the table. */
  markdown?: boolean;
  /** Also write the report as one self-contained HTML page to this file. */
  html?: string;
  /** A variant of the report, or another stored report (id or prefix), to compare against. */
  baseline?: string;
}

/** `--markdown` is text for a person, `--json` a document for a program: refused together, before anything runs. */
export function checkOutputFlags(options: EvalOutputOptions, context: CommandContext): void {
  if (options.markdown === true && context.json) {
    throw new UsageError("--markdown prints the report as Markdown: give it without --json (or --jsonl)");
  }
}

/** The gate the flags ask for; null when they ask for none. */
export function gateFromFlags(flags: GateFlags): EvalGate | null {
  const gate: EvalGate = {
    minPassRate: flags.minPassRate,
    minCasePassRate: flags.minCasePassRate,
    passK: flags.passK,
    allowErrors: flags.allowErrors === true ? true : undefined,
  };
  const given = Object.entries(gate).filter(([, value]) => value !== undefined);
  return given.length === 0 ? null : (Object.fromEntries(given) as EvalGate);
}

/**
 * `--baseline NAME`: a variant of this report when it has one of that name, else a stored report by id
 * or prefix (whose errors then name it as a report).
 */
export async function readBaseline(
  store: Store,
  reference: string | undefined,
  current: StoredEvalReport,
): Promise<EvalBaseline | undefined> {
  if (reference === undefined) return undefined;
  if (current.node.samples.some((sample) => sample.variant === reference)) return { variant: reference };
  return { report: await resolveEvalReport(store, reference) };
}

/**
 * The outcome every command that shows a report returns: the result (summary, gate, comparisons), the
 * HTML page written if asked, the table or Markdown, and the error its gate or errored samples imply,
 * which the pipeline reports after printing the result (exit 1 errored, 3 the gate did not hold).
 */
export async function evalOutcome(
  stored: StoredEvalReport,
  options: EvalOutputOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalResult>> {
  const store = await context.openStore({ create: false });
  const baseline = await readBaseline(store, options.baseline, stored);
  const result = buildEvalResult(stored, { baseline });
  if (options.html !== undefined) {
    const file = resolve(context.cwd, options.html);
    writeFileSync(file, renderEvalHtml(result));
    result.html = file;
  }
  return {
    result,
    format: (value, color) =>
      options.markdown === true ? renderEvalMarkdown(value) : renderEvalTable(value, { color }),
    error: evalOutcomeError(result),
  };
}

/** What `eval` and `eval rescore` score with: the flags every evaluation shares, and where it runs. */
export interface EvaluateFlags extends GateFlags {
  assert?: string[];
  name?: string;
  agent?: string;
  timeout?: number;
}

/** The evaluation's options from the command's context and flags: its store, config, clock, ids and notes. */
export async function evaluateOptionsOf(flags: EvaluateFlags, context: CommandContext): Promise<EvaluateOptions> {
  return {
    store: await context.openStore({ create: true }),
    config: await context.loadConfig(),
    home: context.home,
    cwd: context.cwd,
    host: context.host,
    now: () => context.now(),
    newId: () => context.newId(),
    signal: context.signal,
    assertions: flags.assert ?? [],
    name: flags.name,
    gate: gateFromFlags(flags),
    defaultAgent: flags.agent,
    timeoutSeconds: flags.timeout,
    onNote: (message: string) => context.note(message),
  };
}

/**
 * What `eval` and `eval rescore` do around their scoring: refuse `--markdown` with `--json` before anything
 * runs, hand `score` the evaluation's options, then show the report it stored (evalOutcome).
 */
export async function scoreAndShow(
  options: EvaluateFlags & EvalOutputOptions,
  context: CommandContext,
  score: (evaluation: EvaluateOptions) => Promise<StoredEvalReport>,
): Promise<CommandOutcome<EvalResult>> {
  checkOutputFlags(options, context);
  const stored = await score(await evaluateOptionsOf(options, context));
  return evalOutcome(stored, options, context);
}
