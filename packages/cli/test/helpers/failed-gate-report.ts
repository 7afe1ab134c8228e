import { evalResultSchema } from "@uwf/protocol";
import type { TempHome } from "./temp-home.ts";
import { uwfExiting } from "./uwf-exiting.ts";

/**
 * Scores a stepped thread of linear.yaml with an assertion its plan never meets, under a gate that wants
 * every sample to pass: `uwf eval THREAD --assert … --min-pass-rate 1` must exit 3 (the gate failed), and
 * the report it stored all the same is returned.
 */
export async function failedGateReport(home: TempHome, thread: string): Promise<string> {
  const scored = await uwfExiting(
    home,
    ["eval", thread, "--assert", "steps[0].output.plan = 'never'", "--min-pass-rate", "1", "--json"],
    3,
  );
  return evalResultSchema.parse(JSON.parse(scored.stdout)).report;
}
