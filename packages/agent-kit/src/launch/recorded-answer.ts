import { isAbsolute, resolve } from "node:path";
import { parseScenarioReference, safeLoadScenario } from "./load-scenario.ts";

export interface RecordedAnswerOptions {
  /** The scenario as `--agent scripted:` names it (`FILE` or `FILE#THREAD`), without the prefix. */
  scenario: string;
  /** The folder a relative file name is read from. */
  baseDir: string;
  /**
   * The 0-based index of the step to play next: in the scenario's main sequence (the thread's step
   * count), or for a branch among its own entries (the steps the branch made of its own).
   */
  stepIndex: number;
  /** For a branch: its key; its entries are `branch: KEY` ones, else the `branch: "*"` ones (as the scripted agent plays them). */
  branch?: string;
}

/** What answered a recorded suspension: text (`resume -p`) or a typed answer's fields (`resume --answer`). */
export type RecordedAnswer = { text: string } | { fields: Record<string, unknown> };

/**
 * The answer a scenario recorded on the entry at `stepIndex` (its `answer:`): what the recorded thread
 * was resumed with to make that step, after a suspension or its end, so `uwf run --agent scripted:FILE`
 * can resume the thread as the recorded one was. Null when the entry records none (the run stops at the
 * suspension, as a real one does), or there is no such entry, or the scenario cannot be read (the step
 * that read it has already said why).
 */
export async function loadRecordedAnswer(options: RecordedAnswerOptions): Promise<RecordedAnswer | null> {
  const reference = parseScenarioReference(options.scenario);
  const file = isAbsolute(reference.file) ? reference.file : resolve(options.baseDir, reference.file);
  const loaded = await safeLoadScenario(file, { thread: reference.thread });
  if (!loaded.success) return null;
  const { steps } = loaded.value;
  const own = options.branch === undefined ? [] : steps.filter((step) => step.branch === options.branch);
  const sequence =
    options.branch === undefined
      ? steps.filter((step) => step.branch === null)
      : own.length > 0
        ? own
        : steps.filter((step) => step.branch === "*");
  const entry = sequence[options.stepIndex];
  const answer = entry?.answer ?? null;
  if (answer === null) return null;
  return typeof answer === "string" ? { text: answer } : { fields: answer };
}
