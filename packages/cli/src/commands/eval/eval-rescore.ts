import { rescoreEvalReport, resolveEvalReport } from "@uwf/eval";
import type { EvalResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { type EvalOutputOptions, evalOutcome, type GateFlags, gateFromFlags } from "./eval-output.ts";

export interface EvalRescoreCommandOptions extends GateFlags, EvalOutputOptions {
  report: string;
  assert?: string[];
  /** Score only the `--assert` given, dropping the report's own assertions. */
  replace?: boolean;
  agent?: string;
  timeout?: number;
}

/**
 * `uwf eval rescore REPORT --assert …`: the same threads, at the heads the report scored, judged again
 * with its assertions and the new ones (or only the new ones, `--replace`); nothing is run but judges.
 */
export async function evalRescoreCommand(
  options: EvalRescoreCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalResult>> {
  const store = await context.openStore({ create: true });
  const previous = await resolveEvalReport(store, options.report);
  const stored = await rescoreEvalReport(previous, {
    store,
    config: await context.loadConfig(),
    home: context.home,
    cwd: context.cwd,
    host: context.host,
    now: () => context.now(),
    newId: () => context.newId(),
    signal: context.signal,
    assertions: options.assert ?? [],
    replace: options.replace === true,
    gate: gateFromFlags(options),
    defaultAgent: options.agent,
    timeoutSeconds: options.timeout,
    onNote: (message: string) => context.note(message),
  });
  return evalOutcome(stored, options, context);
}
