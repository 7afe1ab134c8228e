import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import {
  cliEventSchema,
  errorResultSchema,
  logResultSchema,
  startResultSchema,
  stepResultSchema,
  threadStartNodeSchema,
  workflowAddResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { parseEvents } from "../../helpers/cli-events.ts";
import { FIXTURES, fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const ASK = join(FIXTURES, "workflows/ask.yaml");
const ASK_SCRIPTED = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig([...fixtureAgentsConfig(["one-second", "plan-then-do", "plan-then-fail"])].join("\n")),
});

interface TimedLine {
  text: string;
  /** When the test read it (Date.now()). */
  at: number;
}

/** Reads a child's stdout as it comes, each line stamped with when it arrived. */
function readLines(stream: ReadableStream<Uint8Array>): { lines: TimedLine[]; done: Promise<void> } {
  const lines: TimedLine[] = [];
  const decoder = new TextDecoder();
  let pending = "";
  const done = (async () => {
    for await (const chunk of stream) {
      pending += decoder.decode(chunk, { stream: true });
      const at = Date.now();
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        lines.push({ text: pending.slice(0, newline), at });
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    }
  })();
  return { lines, done };
}

const start = (workflow = LINEAR) => temp.startThread(workflow);

describe("streaming step lines", () => {
  it("prints the first step's line before the second step ends, when stdout is a pipe", async () => {
    const child = temp.spawn(["run", LINEAR, "-p", "Write hello.txt", "--agent", "one-second"]);
    const { lines, done } = readLines(child.stdout as ReadableStream<Uint8Array>);
    expect(await child.exited).toBe(0);
    await done;
    expect(lines.map((line) => line.text.replace(/ · .*/, ""))).toEqual([
      "#1 planner one-second",
      "#2 doer one-second",
      expect.stringMatching(/^thread \w{26} ended$/),
    ]);
    // The thread's own record of when step 2 ended: line 1 was read before it, not at the end.
    const thread = (lines[2]?.text ?? "").split(" ")[1] ?? "";
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    const secondEnded = Date.parse(log.steps[1]?.completedAt ?? "");
    expect(lines[0]?.at).toBeLessThan(secondEnded);
    expect(lines[1]?.at).toBeGreaterThanOrEqual(secondEnded);
  });

  it("prints NDJSON events under --jsonl, each matching its schema, in order", async () => {
    const result = await temp.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED, "--jsonl"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    const events = parseEvents(result.stdout);
    expect(events.map((event) => event.type)).toEqual([
      "step-started",
      "step-finished",
      "step-started",
      "step-finished",
      "thread-ended",
    ]);
    const thread = events[0]?.thread;
    expect(events.every((event) => event.thread === thread)).toBe(true);
    expect(events[0]).toMatchObject({ number: 1, role: "planner", agent: "scripted" });
    expect(events[3]).toMatchObject({ number: 2, role: "doer", output: { done: true } });
    expect(events[4]).toMatchObject({ head: (events[3] as { address: string }).address });
  });

  it("reports a suspension as thread-suspended and exits 20; resume --jsonl goes on from there", async () => {
    const thread = await start(ASK);
    const asked = await temp.uwf(["step", thread, "--all", "--agent", ASK_SCRIPTED, "--jsonl"]);
    expect(asked.exitCode).toBe(20);
    const events = parseEvents(asked.stdout);
    expect(events.map((event) => event.type)).toEqual(["step-started", "step-finished", "thread-suspended"]);
    expect(events[2]).toMatchObject({ role: "asker", reason: "Which colour do you mean?" });

    // Stepping it again is refused (20) and says where it stands, as an event too.
    const refused = await temp.uwf(["step", thread, "--agent", ASK_SCRIPTED, "--jsonl"]);
    expect(refused.exitCode).toBe(20);
    expect(parseEvents(refused.stdout).map((event) => event.type)).toEqual(["thread-suspended"]);

    const resumed = await temp.uwf(["resume", thread, "-p", "Blue", "--agent", ASK_SCRIPTED, "--jsonl"]);
    expect(resumed.exitCode).toBe(0);
    expect(parseEvents(resumed.stdout).map((event) => event.type)).toEqual([
      "step-started",
      "step-finished",
      "thread-ended",
    ]);
  });

  it("ends with step-failed naming the failed run under --jsonl, after the steps that succeeded", async () => {
    const result = await temp.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", "plan-then-fail", "--jsonl"]);
    expect(result.exitCode).toBe(1);
    const events = parseEvents(result.stdout);
    expect(events.map((event) => event.type)).toEqual(["step-started", "step-finished", "step-started", "step-failed"]);
    const failed = events[3];
    if (failed?.type !== "step-failed") throw new Error("expected step-failed");
    expect(failed).toMatchObject({ number: 2, role: "doer", error: { code: "agent-failed" } });
    expect(failed.run).toMatch(/^[0-9A-Z]{13}$/);
    const reply = await temp.uwf(["cas", "get", failed.run ?? ""]);
    expect(reply.exitCode).toBe(0);
    // The error is also reported on stderr, as one JSON document.
    expect(errorResultSchema.parse(JSON.parse(result.stderr)).error.code).toBe("agent-failed");
  });

  it("keeps --json to one document that lists the steps that succeeded beside the error", async () => {
    const result = await temp.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", "plan-then-fail", "--json"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const document = stepResultSchema.parse(result.json());
    expect(document.steps.map((step) => step.role)).toEqual(["planner"]);
    // The thread stands where the failed step left it: failed, its next role still the doer's.
    expect(document).toMatchObject({ status: "failed", next: "doer", head: document.steps[0]?.address });
    expect(document.error).toMatchObject({ code: "agent-failed", data: { role: "doer" } });
    expect(document.failure).toMatchObject({ code: "agent-failed", run: document.error?.data.run });
    expect(document.error).toEqual(errorResultSchema.parse(JSON.parse(result.stderr)).error);
  });

  it("prints the step lines that succeeded in text, and the error on stderr", async () => {
    const result = await temp.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", "plan-then-fail"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^#1 planner plan-then-fail · \S+ · [0-9A-Z]{13}\n$/);
    expect(result.stderr).toContain("uwf: doer:");
  });

  it("refuses --json with --jsonl as a usage error", async () => {
    const result = await temp.uwf(["step", "01J0000000000000000000000", "--json", "--jsonl"]);
    expect(result.exitCode).toBe(2);
    expect(errorResultSchema.parse(JSON.parse(result.stderr)).error.message).toContain("--json and --jsonl");
  });
});

describe("uwf log --follow", () => {
  it("prints the steps so far, then a step another process records, and exits 0 when the thread ends", async () => {
    const thread = await start();
    expect((await temp.uwf(["step", thread, "--agent", "plan-then-do"])).exitCode).toBe(0);
    const follower = temp.spawn(["log", thread, "--follow", "--jsonl"]);
    const { lines, done } = readLines(follower.stdout as ReadableStream<Uint8Array>);
    await waitFor(() => lines.length === 1, { what: "the step so far" });
    expect(cliEventSchema.parse(JSON.parse(lines[0]?.text ?? ""))).toMatchObject({ type: "step-finished", number: 1 });

    expect((await temp.uwf(["step", thread, "--agent", "plan-then-do"])).exitCode).toBe(0);
    expect(await follower.exited).toBe(0);
    await done;
    const events = lines.map((line) => cliEventSchema.parse(JSON.parse(line.text)));
    expect(events.map((event) => [event.type, "role" in event ? event.role : null])).toEqual([
      ["step-finished", "planner"],
      ["step-finished", "doer"],
      ["thread-ended", null],
    ]);
  });

  it("follows a thread another process steps, in text, as step --all prints it", async () => {
    const thread = await start();
    const follower = temp.spawn(["log", thread, "--follow"]);
    const { lines, done } = readLines(follower.stdout as ReadableStream<Uint8Array>);
    const stepper = temp.spawn(["step", thread, "--all", "--agent", "one-second"]);
    expect(await stepper.exited).toBe(0);
    expect(await follower.exited).toBe(0);
    await done;
    expect(lines.map((line) => line.text.replace(/ · .*/, ""))).toEqual([
      "#1 planner one-second",
      "#2 doer one-second",
      `thread ${thread} ended`,
    ]);
  });

  it("exits 20 at once on a suspended thread, and 130 when interrupted while it waits", async () => {
    const asking = await start(ASK);
    await temp.uwf(["step", asking, "--agent", ASK_SCRIPTED]);
    const suspended = await temp.uwf(["log", asking, "--follow", "--jsonl"]);
    expect(suspended.exitCode).toBe(20);
    expect(parseEvents(suspended.stdout).map((event) => event.type)).toEqual(["step-finished", "thread-suspended"]);

    const waiting = await start();
    await temp.uwf(["step", waiting, "--agent", "plan-then-do"]);
    const follower = temp.spawn(["log", waiting, "--follow"]);
    const { lines } = readLines(follower.stdout as ReadableStream<Uint8Array>);
    await waitFor(() => lines.length === 1, { what: "the step so far" });
    follower.kill("SIGINT");
    expect(await follower.exited).toBe(130);
    expect(await new Response(follower.stderr as ReadableStream).text()).toContain("interrupted by SIGINT");
  });
});

describe("prompts and files from stdin", () => {
  it("takes a 1 MB prompt from stdin with -p - and stores it whole", async () => {
    const prompt = `${"A long task. ".repeat(80_000)}The end.`;
    expect(prompt.length).toBeGreaterThan(1_000_000);
    const result = await temp.uwf(["run", LINEAR, "-p", "-", "--agent", SCRIPTED, "--json"], { stdin: prompt });
    expect(result.exitCode).toBe(0);
    const document = stepResultSchema.parse(result.json());
    expect(document.status).toBe("ended");
    const shown = (await temp.uwf(["show", document.thread, "--json"])).json() as { start: string };
    const start = threadStartNodeSchema.parse((await temp.uwf(["cas", "get", shown.start])).json());
    expect(start.prompt).toBe(prompt);
  });

  it("reads the prompt from --prompt-file on start, and the answer from it on resume", async () => {
    const task = join(temp.work, "task.md");
    writeFileSync(task, "Task from a file\n");
    const started = await temp.uwf(["start", ASK, "--prompt-file", "task.md", "--json"]);
    expect(started.exitCode).toBe(0);
    const head = startResultSchema.parse(started.json()).head;
    expect(threadStartNodeSchema.parse((await temp.uwf(["cas", "get", head])).json()).prompt).toBe(
      "Task from a file\n",
    );
    const thread = startResultSchema.parse(started.json()).thread;
    await temp.uwf(["step", thread, "--agent", ASK_SCRIPTED]);
    const answer = join(temp.work, "answer.md");
    writeFileSync(answer, "Blue, the dark one.");
    const resumed = await temp.uwf(["resume", thread, "--prompt-file", answer, "--agent", ASK_SCRIPTED, "--json"]);
    expect(resumed.exitCode).toBe(0);
    const step = stepResultSchema.parse(resumed.json()).steps[0];
    const prompt = await temp.uwf(["show", step?.address ?? "", "--prompt"]);
    expect(prompt.stdout).toContain("Blue, the dark one.");
  });

  it("needs exactly one of -p and --prompt-file, and stdin for only one flag (exit 2)", async () => {
    const cases: Array<[string[], string]> = [
      [["start", LINEAR], "the prompt is missing"],
      [["run", LINEAR, "--agent", SCRIPTED], "the prompt is missing"],
      [["resume", "01J0000000000000000000000"], "the prompt is missing"],
      [["start", LINEAR, "-p", "x", "--prompt-file", "task.md"], "give the prompt once"],
      [["start", LINEAR, "-p", "-", "--inputs", "-"], "stdin can be read once"],
    ];
    for (const [args, message] of cases) {
      const result = await temp.uwf(args, { stdin: "" });
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 2 });
      expect(result.stderr).toContain(message);
    }
    expect((await temp.uwf(["list", "--json"])).json()).toMatchObject({ total: 0 });
  });

  it("reads - as stdin for fork --output, cas put, workflow validate and workflow add", async () => {
    const thread = await start();
    const planned = stepResultSchema.parse(
      (await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"])).json(),
    );
    const fork = await temp.uwf(["fork", planned.head, "--output", "-", "--json"], {
      stdin: "---\nplan: a better plan\n---\nFrom stdin.\n",
    });
    expect(fork.exitCode).toBe(0);
    const forked = (await temp.uwf(["log", (fork.json() as { thread: string }).thread, "--json"])).json();
    expect(logResultSchema.parse(forked).steps[0]?.output).toEqual({ plan: "a better plan" });
    const refused = await temp.uwf(["fork", planned.head, "--output", "-"], { stdin: "no frontmatter" });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toStartWith("uwf: stdin: ");

    const put = await temp.uwf(["cas", "put", "-"], { stdin: '{"a":1}' });
    expect(put.exitCode).toBe(0);
    expect((await temp.uwf(["cas", "get", put.stdout.trim()])).json()).toEqual({ a: 1 });

    const workflow = await Bun.file(LINEAR).text();
    const valid = await temp.uwf(["workflow", "validate", "-", "--json"], { stdin: workflow });
    expect(workflowValidateResultSchema.parse(valid.json())).toMatchObject({ file: "stdin", valid: true });
    const invalid = await temp.uwf(["workflow", "validate", "-"], { stdin: "name: broken\nroles: [" });
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stdout).toContain("stdin:");
    const added = await temp.uwf(["workflow", "add", "-", "--json"], { stdin: workflow });
    expect(workflowAddResultSchema.parse(added.json()).name).toBe("linear");
    const started = await temp.uwf(["start", "linear", "-p", "By its registered name"]);
    expect(started.exitCode).toBe(0);
  });
});
