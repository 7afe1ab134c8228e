/**
 * `uwf ui`'s API against the real binary, where it meets the rest of uwf: bad query parameters, a
 * refused edited reply, an eval report whose gate failed, a home with no store yet, and config.yaml
 * changed while the server (or a worker) runs.
 */
import { describe, expect, it } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { evalResultSchema, listResultSchema, logResultSchema } from "@uwf/protocol";
import { failedGateReport } from "../../helpers/failed-gate-report.ts";
import { FIXTURES, LINEAR, type TempHome, useTempHome } from "../../helpers/temp-home.ts";
import { type RunningUi, startUi } from "../../helpers/ui-browser.ts";

const SCENARIO = join(FIXTURES, "workflows/linear.scenario.yaml");
const temp = useTempHome();

/** Two aliases of the same scripted agent: which one ran a step shows in its log. */
function writeTwoAgents(home: TempHome, defaultAgent: string): void {
  home.writeConfig(
    [
      "agents:",
      `  first: { builtin: scripted, scenario: ${SCENARIO} }`,
      `  second: { builtin: scripted, scenario: ${SCENARIO} }`,
      `defaultAgent: ${defaultAgent}`,
    ].join("\n"),
  );
}

async function withUi<T>(args: string[], use: (ui: RunningUi, token: string) => Promise<T>): Promise<T> {
  const ui = await startUi(temp, args);
  try {
    return await use(ui, new URL(ui.url).searchParams.get("token") as string);
  } finally {
    await ui.stop();
  }
}

const post = (ui: RunningUi, token: string, path: string, body: unknown = {}) =>
  fetch(`${ui.origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function agentsOf(thread: string): Promise<string[]> {
  return logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json()).steps.map((step) => step.agent);
}

describe("uwf ui's API", () => {
  it("refuses a limit or offset that is no count with 400 invalid-query naming it", async () => {
    await temp.startThread(LINEAR, "Count me");
    await withUi([], async (ui) => {
      for (const path of ["/api/threads", "/api/evals"]) {
        for (const [name, value] of [
          ["limit", "-1"],
          ["limit", "abc"],
          ["offset", "1.5"],
          ["offset", "1e3"],
        ] as const) {
          const answer = await fetch(`${ui.origin}${path}?${name}=${encodeURIComponent(value)}`);
          expect({ path, name, value, status: answer.status }).toEqual({ path, name, value, status: 400 });
          expect(await answer.json()).toEqual({
            error: {
              code: "invalid-query",
              message: `the query's "${name}" must be a whole number of 0 or more, not "${value}"`,
              data: { path },
            },
          });
        }
      }
      const listed = await fetch(`${ui.origin}/api/threads?limit=1&offset=0`);
      expect(listResultSchema.parse(await listed.json())).toMatchObject({ limit: 1, offset: 0, total: 1 });
    });
  }, 60_000);

  it("names a refused edited reply as the edited reply, not by the server's temporary file", async () => {
    writeTwoAgents(temp, "first");
    const thread = await temp.startThread(LINEAR, "Fork me");
    expect((await temp.uwf(["step", thread, "--all", "-q"])).exitCode).toBe(0);
    const planner = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json()).steps[0]
      ?.address as string;
    await withUi([], async (ui, token) => {
      const refused = await post(ui, token, `/api/nodes/${planner}/fork`, {
        reply: "---\nwrong: field\n---\nNo plan.",
      });
      expect(refused.status).toBe(422);
      const text = await refused.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: "invalid-reply" } });
      expect(text).toContain("the edited reply");
      expect(text).not.toContain("uwf-ui-reply-");
      expect(text).not.toContain(tmpdir());
    });
  }, 60_000);

  it("answers an eval report whose gate failed with the report and its failed verdict (200)", async () => {
    writeTwoAgents(temp, "first");
    const thread = await temp.startThread(LINEAR, "Judge me");
    expect((await temp.uwf(["step", thread, "--all", "-q"])).exitCode).toBe(0);
    const report = await failedGateReport(temp, thread);
    expect((await temp.uwf(["eval", "show", report, "--json"])).exitCode).toBe(3);
    await withUi([], async (ui) => {
      const answer = await fetch(`${ui.origin}/api/evals/${report}`);
      expect(answer.status).toBe(200);
      const shown = evalResultSchema.parse(await answer.json());
      expect(shown.report).toBe(report);
      expect(shown.gateChecks.find((check) => check.check === "min-pass-rate")).toMatchObject({ held: false });
    });
  }, 60_000);

  for (const args of [[], ["--read-only"]]) {
    it(`started on a home with no store yet, sees the threads made after it, live (${args.join(" ") || "read-write"})`, async () => {
      writeTwoAgents(temp, "first");
      await withUi(args, async (ui) => {
        const before = listResultSchema.parse(await (await fetch(`${ui.origin}/api/threads`)).json());
        expect(before.total).toBe(0);
        const events = await fetch(`${ui.origin}/api/events`);
        const reader = (events.body as ReadableStream<Uint8Array>).getReader();
        const ran = await temp.uwf(["run", LINEAR, "-p", "After the UI", "--json"]);
        expect(ran.exitCode).toBe(0);
        const thread = (ran.json() as { thread: string }).thread;
        let seen = "";
        const decoder = new TextDecoder();
        while (!seen.includes(`"thread-ended"`)) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += decoder.decode(value, { stream: true });
        }
        await reader.cancel();
        expect(seen).toContain(thread);
        const after = listResultSchema.parse(await (await fetch(`${ui.origin}/api/threads`)).json());
        expect(after.threads.map((row) => row.id)).toEqual([thread]);
      });
    }, 60_000);
  }

  it("reads config.yaml for each action: a step after `uwf config set defaultAgent` uses the new agent", async () => {
    writeTwoAgents(temp, "first");
    const thread = await temp.startThread(LINEAR, "Change agents");
    await withUi([], async (ui, token) => {
      expect((await post(ui, token, `/api/threads/${thread}/step`)).status).toBe(200);
      expect((await temp.uwf(["config", "set", "defaultAgent", "second"])).exitCode).toBe(0);
      expect((await post(ui, token, `/api/threads/${thread}/step`)).status).toBe(200);
    });
    expect(await agentsOf(thread)).toEqual(["first", "second"]);
  }, 60_000);
});

describe("uwf worker", () => {
  it("reads config.yaml for each thread it claims: the next thread after `uwf config set defaultAgent` uses the new agent", async () => {
    writeTwoAgents(temp, "first");
    const worker = temp.spawn(["worker", "--poll-ms", "50"]);
    try {
      const started = await temp.uwf(["start", LINEAR, "-p", "One", "--queue", "--json"]);
      const one = (started.json() as { thread: string }).thread;
      await waitFor(async () => (await temp.showThread(one)).status === "ended", { what: "the first thread ended" });
      expect((await temp.uwf(["config", "set", "defaultAgent", "second"])).exitCode).toBe(0);
      const two = ((await temp.uwf(["start", LINEAR, "-p", "Two", "--queue", "--json"])).json() as { thread: string })
        .thread;
      await waitFor(async () => (await temp.showThread(two)).status === "ended", { what: "the second thread ended" });
      expect(await agentsOf(one)).toEqual(["first", "first"]);
      expect(await agentsOf(two)).toEqual(["second", "second"]);
    } finally {
      worker.kill("SIGTERM");
      await worker.exited;
    }
  }, 60_000);
});
