import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import type { EvalAssertion, EvalScore, EvalThreadView, ThreadRecord } from "@uwf/protocol";
import { createEvalTestKit, type EvalTestKit, FIXTURES } from "../../test/eval-test-kit.ts";
import { loadThreadViews } from "../view/load-thread-view.ts";
import { scoreThreads } from "./score-threads.ts";

const SCORERS = join(FIXTURES, "scorers");

let kit: EvalTestKit;
let done: ThreadRecord;
let views: EvalThreadView[];

beforeAll(async () => {
  kit = createEvalTestKit();
  done = await kit.runThread([{ role: "worker", output: { $status: "approved", summary: "ok" }, body: "Done it." }]);
  const other = await kit.runThread([
    { role: "worker", output: { $status: "rejected", summary: "no" }, body: "Nope." },
  ]);
  views = await loadThreadViews(kit.store, [done, other], { bodies: true });
});
afterAll(() => kit.cleanup());

async function scoreWith(
  command: string | string[],
  extra: Partial<Extract<EvalAssertion, { kind: "command" }>> = {},
): Promise<EvalScore[]> {
  const samples = await scoreThreads({
    views,
    assertions: [{ kind: "command", name: "scorer", command, ...extra }],
    cwd: SCORERS,
    concurrency: 2,
  });
  return samples.map((sample) => sample.scores[0] as EvalScore);
}

describe("a command scorer", () => {
  it("reads the view with bodies on stdin and gives pass, score and reason; pass: false fails", async () => {
    const [passed, failed] = await scoreWith("./body-says-done.sh");
    expect(passed).toEqual({
      assertion: "scorer",
      verdict: "passed",
      score: 0.75,
      reason: `the body says done (${done.id})`,
      error: null,
      judge: null,
    });
    expect(failed).toMatchObject({ verdict: "failed", score: 0, reason: "no step says done", error: null });
  });

  it("runs a list without a shell, in its cwd resolved against the base", async () => {
    const [passed] = await scoreWith(["sh", "body-says-done.sh"], { cwd: "." });
    expect(passed?.verdict).toBe("passed");
    const [missing] = await scoreWith(["sh", "body-says-done.sh"], { cwd: "no-such-folder" });
    expect(missing?.verdict).toBe("errored");
    expect(missing?.error).toContain("does not exist");
  });

  it("errs when it crashes, with the tail of its stderr", async () => {
    const [crashed] = await scoreWith("./crash.sh");
    expect(crashed).toMatchObject({ verdict: "errored", score: null });
    expect(crashed?.error).toBe('the scorer "scorer" exited with code 3 (stderr: scorer: cannot open the rubric)');
  });

  it("errs when it prints anything but one JSON object of the right shape", async () => {
    const [garbage] = await scoreWith("./garbage.sh");
    expect(garbage?.verdict).toBe("errored");
    expect(garbage?.error).toBe('the scorer "scorer" printed something other than one JSON object: "looks good to me"');
    const [twice] = await scoreWith("./two-objects.sh");
    expect(twice?.verdict).toBe("errored");
    const [badScore] = await scoreWith("./bad-score.sh");
    expect(badScore?.error).toContain("score:");
    const [silent] = await scoreWith("true");
    expect(silent?.error).toContain("printed nothing");
    expect([garbage, twice, badScore, silent].every((score) => !score?.error?.includes("\n"))).toBe(true);
  });

  it("errs when a signal kills it", async () => {
    const [killed] = await scoreWith("kill -KILL $$");
    expect(killed?.verdict).toBe("errored");
    expect(killed?.error).toContain("was killed by SIGKILL");
  });

  it("errs on a timeout and stops its whole process group", async () => {
    const pidFile = join(kit.home, "child.pid");
    const samples = await scoreThreads({
      views: views.slice(0, 1),
      assertions: [{ kind: "command", name: "slow", command: [join(SCORERS, "hang.sh"), pidFile], timeoutSeconds: 1 }],
      cwd: SCORERS,
    });
    expect(samples[0]?.scores[0]).toMatchObject({ verdict: "errored" });
    expect(samples[0]?.scores[0]?.error).toContain('the scorer "slow" timed out after 1');
    expect(samples[0]?.verdict).toBe("errored");
    const child = Number(readFileSync(pidFile, "utf8").trim());
    expect(child).toBeGreaterThan(1);
    await waitFor(() => !isAlive(child), { what: "the scorer's child to be stopped" });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
