import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import {
  deleteResultSchema,
  errorResultSchema,
  scheduleListResultSchema,
  scheduleShowResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
  tickResultSchema,
} from "@uwf/protocol";
import { FIXTURES, LINEAR } from "../helpers/temp-home.ts";
import { ASK, BRIEF, setUpWorkbenchHome, WORKBENCH_SECRET } from "../helpers/workbench-home.ts";
import { useUiApi } from "./ui-api-kit.ts";

/**
 * The workbench's endpoints over a real store (startUiServer with the CLI's backend): start a thread
 * (`POST /api/threads`), the agent of a step or resume, the agent aliases, delete, and the schedules;
 * each bad input a 400 naming the field, with nothing written.
 */

const TOKEN = "test-token-workbench-0123456789";
const LINEAR_SCENARIO = join(FIXTURES, "workflows/linear.scenario.yaml");

const { temp, serve, pagePost } = useUiApi({ token: TOKEN, setUp: setUpWorkbenchHome });

/** The answer's status and error (code and message). */
async function refusal(response: Response) {
  const { error } = errorResultSchema.parse(await response.json());
  return { status: response.status, code: error.code, message: error.message };
}

describe("POST /api/threads", () => {
  it("starts a thread as uwf start does, with typed inputs, a prompt taken as text and no step", async () => {
    const { base } = await serve();
    const response = await pagePost(base, "/api/threads", {
      workflow: "brief",
      // As -p text, "-" would be read from the server's stdin: it is the prompt itself.
      prompt: "-",
      inputs: { topic: "a: colon", count: 3, urgent: true, tone: "calm" },
    });
    expect(response.status).toBe(200);
    const { thread } = startResultSchema.parse(await response.json());
    const shown = await temp.showThread(thread);
    expect(shown).toMatchObject({ status: "active", stepCount: 0, workflow: "brief", next: "planner" });
    const start = (await temp.uwf(["show", shown.start as string, "--json"])).json<Record<string, unknown>>();
    expect(start).toMatchObject({
      node: { prompt: "-", inputs: { topic: "a: colon", count: 3, urgent: true, tone: "calm" } },
    });
  });

  it('steps once with "step": "one", and to the end with "run", with the agent named', async () => {
    const { base } = await serve();
    const once = await pagePost(base, "/api/threads", {
      workflow: "linear",
      prompt: "Write one.txt",
      step: "one",
      agent: "linear",
    });
    expect(once.status).toBe(200);
    const stepped = stepResultSchema.parse(await once.json());
    expect(stepped).toMatchObject({ status: "active", steps: [{ role: "planner", agent: "linear" }] });
    const run = await pagePost(base, "/api/threads", {
      workflow: "linear",
      prompt: "Write all.txt",
      step: "run",
      agent: `scripted:${LINEAR_SCENARIO}`,
    });
    const ran = stepResultSchema.parse(await run.json());
    expect(ran.status).toBe("ended");
    expect(ran.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
  });

  it("a step that fails after the start answers the agent's error naming the thread, which stays, failed", async () => {
    const { base } = await serve();
    const response = await pagePost(base, "/api/threads", {
      workflow: "linear",
      prompt: "Write nothing",
      step: "one",
      agent: "keyed",
    });
    expect(response.status).toBe(422);
    const { error } = errorResultSchema.parse(await response.json());
    expect(error.code).toBe("agent-failed");
    const thread = (error.data as { thread?: string }).thread as string;
    expect((await temp.showThread(thread)).status).toBe("failed");
  });

  it("refuses each bad input with a 400 naming the field, and starts no thread", async () => {
    const { base } = await serve();
    const before = await temp.threadCount();
    const cases: Array<[body: Record<string, unknown>, code: string, message: RegExp]> = [
      [{ prompt: "x" }, "invalid-body", /"workflow" is required/],
      [{ workflow: "linear" }, "invalid-body", /"prompt" is required/],
      [{ workflow: 7, prompt: "x" }, "invalid-body", /"workflow" must be a string/],
      [{ workflow: "linear", prompt: "x", inputs: [1] }, "invalid-body", /"inputs" must be an object/],
      [{ workflow: "linear", prompt: "x", inputs: { "a=b": 1 } }, "invalid-body", /"inputs" has "a=b"/],
      [{ workflow: "linear", prompt: "x", step: "two" }, "invalid-body", /"step" must be one of none, one, run/],
      [{ workflow: "linear", prompt: "x", agent: "linear" }, "invalid-body", /"agent" runs steps/],
      [{ workflow: "linear", prompt: "x", step: "run", agent: "nosuch" }, "usage", /nosuch/],
      [{ workflow: "brief", prompt: "x", inputs: { count: 2 } }, "invalid-inputs", /topic/],
      [{ workflow: "brief", prompt: "x", inputs: { topic: "t", count: "many" } }, "invalid-inputs", /count/],
      [{ workflow: "brief", prompt: "x", inputs: { topic: "t", count: 1, tone: "loud" } }, "invalid-inputs", /tone/],
      [
        { workflow: "linear", prompt: "x", cwd: join(temp.work, "missing") },
        "usage",
        /--cwd .*missing.*no such directory/,
      ],
    ];
    const answers = [];
    for (const [body, , message] of cases) {
      const answer = await refusal(await pagePost(base, "/api/threads", body));
      answers.push({ body, ...answer, message: message.test(answer.message) ? "matches" : answer.message });
    }
    expect(answers).toEqual(
      cases.map(([body, code]) => ({ body, status: 400, code, message: "matches" })) as typeof answers,
    );
    expect(await temp.threadCount()).toBe(before);
  });

  it("refuses a workflow by a file path, and one not there, with the CLI's codes", async () => {
    const { base } = await serve();
    const before = await temp.threadCount();
    const byPath = await refusal(await pagePost(base, "/api/threads", { workflow: BRIEF, prompt: "x" }));
    expect(byPath.status).toBeGreaterThanOrEqual(400);
    expect(byPath.status).toBeLessThan(500);
    const missing = await refusal(await pagePost(base, "/api/threads", { workflow: "nosuch", prompt: "x" }));
    expect(missing).toMatchObject({ status: 404, code: "workflow-not-found" });
    expect(await temp.threadCount()).toBe(before);
  });

  it("takes no action under --read-only, from another origin or without the token", async () => {
    const body = { workflow: "linear", prompt: "x" };
    const before = await temp.threadCount();
    const { base: readOnly } = await serve({ readOnly: true });
    expect(await refusal(await pagePost(readOnly, "/api/threads", body))).toMatchObject({
      status: 403,
      code: "read-only",
    });
    const { base } = await serve();
    expect(await refusal(await pagePost(base, "/api/threads", body, { origin: "http://evil.example" }))).toMatchObject({
      status: 403,
      code: "forbidden-origin",
    });
    const withoutToken = await fetch(`${base}/api/threads`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(await refusal(withoutToken)).toMatchObject({ status: 401, code: "token-required" });
    expect(await temp.threadCount()).toBe(before);
  });
});

describe("the agent of step, run and resume", () => {
  it("lists the configured aliases and their kinds, none of their settings", async () => {
    const { base } = await serve();
    const response = await fetch(`${base}/api/agents`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      agents: [
        { alias: "asker", kind: "scripted" },
        { alias: "keyed", kind: "command" },
        { alias: "linear", kind: "scripted" },
      ],
    });
    expect(text).not.toContain(WORKBENCH_SECRET);
    expect(text).not.toContain("scenario");
  });

  it("steps with the agent named; an unknown alias is a 400 naming it, the thread unchanged", async () => {
    const thread = await temp.startThread(LINEAR, "Write agent.txt");
    const { base } = await serve();
    const unknown = await refusal(await pagePost(base, `/api/threads/${thread}/step`, { agent: "nosuch" }));
    expect(unknown).toMatchObject({ status: 400, code: "usage" });
    expect(unknown.message).toContain('"nosuch"');
    const unchanged = await temp.showThread(thread);
    expect(unchanged).toMatchObject({ status: "active", stepCount: 0 });
    const wrongType = await refusal(await pagePost(base, `/api/threads/${thread}/step`, { agent: 5 }));
    expect(wrongType).toMatchObject({ status: 400, code: "invalid-body" });
    expect(wrongType.message).toContain('"agent"');
    const stepped = await pagePost(base, `/api/threads/${thread}/step`, { all: true, agent: "linear" });
    expect(stepResultSchema.parse(await stepped.json())).toMatchObject({
      status: "ended",
      steps: [{ agent: "linear" }, { agent: "linear" }],
    });
  });

  it("resumes with the agent named; an unknown alias leaves the thread suspended", async () => {
    const suspended = (await temp.uwf(["run", ASK, "-p", "Pick a colour", "--agent", "asker", "--json"])).json<{
      thread: string;
    }>().thread;
    expect((await temp.showThread(suspended)).status).toBe("suspended");
    const { base } = await serve();
    const unknown = await refusal(
      await pagePost(base, `/api/threads/${suspended}/resume`, { prompt: "Blue", agent: "nosuch" }),
    );
    expect(unknown).toMatchObject({ status: 400, code: "usage" });
    expect(unknown.message).toContain('"nosuch"');
    const still = shownThreadSchema.parse(await temp.showThread(suspended));
    expect(still.status).toBe("suspended");
    // "-" is the answer itself, not a read of the server's stdin.
    const resumed = await pagePost(base, `/api/threads/${suspended}/resume`, { prompt: "-", agent: "asker" });
    expect(resumed.status).toBe(200);
    const result = stepResultSchema.parse(await resumed.json());
    expect(result.steps[0]).toMatchObject({ agent: "asker" });
    const prompt = await (await fetch(`${base}/api/nodes/${result.steps[0]?.address}/prompt`)).json();
    expect((prompt as { text: string }).text).toEndWith("The user's answer:\n-\n");
  });
});

describe("delete", () => {
  it("deletes a thread; another delete of it is a 404", async () => {
    const thread = await temp.startThread(LINEAR, "Write doomed.txt");
    const { base } = await serve();
    const deleted = await pagePost(base, `/api/threads/${thread}/delete`);
    expect(deleteResultSchema.parse(await deleted.json())).toMatchObject({ deleted: [{ thread }], busy: [] });
    expect((await temp.uwf(["show", thread])).exitCode).toBe(1);
    expect(await refusal(await pagePost(base, `/api/threads/${thread}/delete`))).toMatchObject({
      status: 404,
      code: "thread-not-found",
    });
    const { base: readOnly } = await serve({ readOnly: true });
    const kept = await temp.startThread(LINEAR, "Write kept.txt");
    expect(await refusal(await pagePost(readOnly, `/api/threads/${kept}/delete`))).toMatchObject({
      status: 403,
      code: "read-only",
    });
    expect((await temp.showThread(kept)).status).toBe("active");
  });
});

describe("schedules", () => {
  it("lists, shows, pauses, resumes and triggers as uwf schedule does; threads it started are tagged", async () => {
    const added = await temp.uwf(["schedule", "add", "hourly", "linear", "--cron", "0 * * * *", "-p", "Hourly"]);
    expect(added.exitCode).toBe(0);
    const { base } = await serve();
    const list = scheduleListResultSchema.parse(await (await fetch(`${base}/api/schedules`)).json());
    expect(list.schedules.map((schedule) => [schedule.name, schedule.paused])).toEqual([["hourly", false]]);
    const paused = scheduleShowResultSchema.parse(await (await pagePost(base, "/api/schedules/hourly/pause")).json());
    expect(paused).toMatchObject({ name: "hourly", paused: true, nextFireAt: null });
    const resumed = scheduleShowResultSchema.parse(await (await pagePost(base, "/api/schedules/hourly/resume")).json());
    expect(resumed.paused).toBe(false);
    expect(resumed.nextFireAt).not.toBeNull();
    const triggered = tickResultSchema.parse(
      await (await pagePost(base, "/api/schedules/hourly/trigger", { queue: true })).json(),
    );
    expect(triggered.fired).toHaveLength(1);
    const thread = triggered.fired[0]?.thread as string;
    const shown = scheduleShowResultSchema.parse(await (await fetch(`${base}/api/schedules/hourly`)).json());
    expect(shown).toMatchObject({ threadCount: 1, threads: [{ id: thread }] });
    expect((await temp.showThread(thread)).scheduledBy).toMatchObject({ schedule: "hourly" });
    expect(await refusal(await fetch(`${base}/api/schedules/nosuch`))).toMatchObject({ status: 404 });
    expect(await refusal(await pagePost(base, "/api/schedules/nosuch/pause"))).toMatchObject({ status: 404 });
    const badBody = await refusal(await pagePost(base, "/api/schedules/hourly/trigger", { queue: "yes" }));
    expect(badBody).toMatchObject({ status: 400, code: "invalid-body" });
    expect(badBody.message).toContain('"queue"');
    const { base: readOnly } = await serve({ readOnly: true });
    expect(await refusal(await pagePost(readOnly, "/api/schedules/hourly/pause"))).toMatchObject({
      status: 403,
      code: "read-only",
    });
  });
});
