/**
 * `uwf worker` and a thread whose agent is misconfigured (no agent configured, an alias config.yaml does
 * not define): nothing ran, so nothing failed. The worker reports the config error once per thread, with
 * its code, lets the thread go as it was (not `failed`, not retried), goes on with other threads, and
 * claims it again once config.yaml changes.
 */
import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import type { CliEvent } from "@uwf/protocol";
import { parseEvents, readEvents } from "../../helpers/cli-events.ts";
import { FIXTURES, LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const SCENARIO = join(FIXTURES, "workflows/linear.scenario.yaml");
const temp = useTempHome();

const GOOD_AGENT = ["agents:", `  real: { builtin: scripted, scenario: ${SCENARIO} }`, "defaultAgent: real"];

async function queued(workflow: string, prompt: string): Promise<string> {
  const started = await temp.uwf(["start", workflow, "-p", prompt, "--queue", "--json"]);
  expect(started.exitCode).toBe(0);
  return (started.json() as { thread: string }).thread;
}

const failuresOf = (events: CliEvent[], thread: string) =>
  events.filter((event) => event.type === "step-failed" && event.thread === thread);

describe("uwf worker and a misconfigured agent", () => {
  it("reports no agent configured once (no-agent), leaves the thread as it was, and exits idle with --once", async () => {
    const thread = await queued(LINEAR, "Nobody to do it");
    const before = await temp.showThread(thread);
    const worked = await temp.uwf(["worker", "--once", "--retries", "3", "--backoff-ms", "10", "--jsonl"]);
    expect(worked.exitCode).toBe(0);
    const events = parseEvents(worked.stdout);
    expect(failuresOf(events, thread)).toMatchObject([{ error: { code: "no-agent" }, number: 1, role: null }]);
    expect(events.filter((event) => event.type === "step-retry" || event.type === "thread-failed")).toEqual([]);
    expect(events.find((event) => event.type === "thread-released")).toMatchObject({
      thread,
      reason: "misconfigured",
      status: "active",
      steps: 0,
    });
    expect(events.at(-1)).toMatchObject({ type: "worker-stopped", reason: "idle", claimed: 1, failed: 0 });
    // Nothing moved: the record, the failed count of list and the status filter.
    expect(await temp.showThread(thread)).toEqual(before);
    expect(await temp.threadCount("--status", "failed")).toBe(0);
    expect(await temp.threadCount("--status", "active")).toBe(1);

    // In text, one line names the error and its code, and one says why the thread was let go.
    const text = await temp.uwf(["worker", "--once", "--retries", "3", "--backoff-ms", "10"]);
    expect(text.exitCode).toBe(0);
    const log = `${text.stdout}${text.stderr}`;
    expect(log.match(/no-agent/g)).toHaveLength(1);
    expect(log).toContain("its agent is misconfigured");
    expect(log).not.toContain("retrying");
  }, 60_000);

  it("passes over a thread whose alias config.yaml lacks, steps the others, and claims it once config.yaml changes", async () => {
    // linear's planner runs `ghost`, which no agent defines; a copy of linear under another name does not.
    temp.writeConfig([...GOOD_AGENT, "agentOverrides:", "  linear:", "    planner: ghost"].join("\n"));
    const other = join(temp.work, "linear-two.yaml");
    writeFileSync(other, readFileSync(LINEAR, "utf8").replace("name: linear", "name: linear-two"));
    const broken = await queued(LINEAR, "Ghost plans");
    const before = await temp.showThread(broken);
    const worker = temp.spawn(["worker", "--poll-ms", "50", "--retries", "3", "--backoff-ms", "10", "--jsonl"]);
    try {
      const events = readEvents(worker.stdout as ReadableStream<Uint8Array>);
      await events.until(
        (event) => event.type === "thread-released" && event.thread === broken,
        "the misconfigured thread let go",
      );
      // The worker goes on: a thread queued after it (a younger id) runs to its end.
      const fine = await queued(other, "Plan and do");
      await events.until(
        (event) => event.type === "thread-released" && event.thread === fine && event.reason === "ended",
        "the other thread ended",
      );
      // Many poll rounds later, the misconfigured thread was reported once and is as it was.
      expect(failuresOf(events.events, broken)).toMatchObject([
        { error: { code: "unknown-agent", data: { alias: "ghost" } } },
      ]);
      expect(await temp.showThread(broken)).toEqual(before);
      expect(await temp.threadCount("--status", "failed")).toBe(0);

      // config.yaml fixed: the worker claims the thread again and runs it to its end.
      temp.writeConfig(GOOD_AGENT.join("\n"));
      await waitFor(async () => (await temp.showThread(broken)).status === "ended", {
        what: "the thread ended once config.yaml was fixed",
      });
      expect(failuresOf(events.events, broken)).toHaveLength(1);
      expect(events.events.filter((event) => event.type === "step-retry" || event.type === "thread-failed")).toEqual(
        [],
      );
    } finally {
      worker.kill("SIGTERM");
      await worker.exited;
    }
  }, 90_000);
});
