import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  listResultSchema,
  logResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { FIXTURES, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

const start = () => temp.startThread(LINEAR);

describe("a linear two-role workflow", () => {
  it("runs planner then doer, links the chain and ends", async () => {
    const thread = await start();
    const first = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"]);
    expect(first.exitCode).toBe(0);
    const firstResult = stepResultSchema.parse(first.json());
    expect(firstResult.steps.map((step) => step.role)).toEqual(["planner"]);
    expect(firstResult.steps[0]?.output).toEqual({ plan: "write hello.txt" });
    expect(firstResult.next).toBe("doer");

    // The doer's reply routes to $END: the step that records it ends the thread.
    const ending = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"]);
    expect(ending.exitCode).toBe(0);
    const second = stepResultSchema.parse(ending.json());
    expect(second.steps[0]?.role).toBe("doer");
    expect(second.status).toBe("ended");

    const again = await temp.uwf(["step", thread, "--agent", SCRIPTED]);
    expect(again.exitCode).toBe(10);
    expect(again.stderr).toContain("has ended");

    // The chain: doer.prev = planner, planner.prev = null, both share the start.
    const doer = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", second.head])).json());
    expect(doer.prev).toBe(firstResult.head);
    const planner = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", firstResult.head])).json());
    expect(planner.prev).toBeNull();
    expect(planner.start).toBe(doer.start);
    expect(doer.edgePrompt).toBe("Carry out this plan: write hello.txt");

    const shown = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(shown.status).toBe("ended");
    expect(shown.stepCount).toBe(2);
  });

  it("runs three steps in one call with -n 3 and stops at the end", async () => {
    const thread = await start();
    const result = await temp.uwf(["step", thread, "-n", "3", "--agent", SCRIPTED, "--json"]);
    expect(result.exitCode).toBe(0);
    const parsed = stepResultSchema.parse(result.json());
    expect(parsed.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    expect(parsed.status).toBe("ended");
  });

  it("fails a scripted step routed to another role and leaves the head unchanged", async () => {
    const thread = await start();
    const before = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    const wrong = `scripted:${join(FIXTURES, "workflows/linear.wrong-role.scenario.yaml")}`;
    const result = await temp.uwf(["step", thread, "--agent", wrong]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("doer");
    expect(result.stderr).toContain("planner");
    const after = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(after.head).toBe(before.head);
    expect(after.stepCount).toBe(0);
  });

  it("renders the edge prompt from the previous output into the stored prompt", async () => {
    const thread = await start();
    await temp.uwf(["step", thread, "-n", "2", "--agent", SCRIPTED]);
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    const prompt = await temp.uwf(["show", log.steps[1]?.address ?? "", "--prompt"]);
    expect(prompt.exitCode).toBe(0);
    expect(prompt.stdout).toContain("Carry out this plan: write hello.txt");
    expect(prompt.stdout).toContain("Write hello.txt");
  });

  it("prints human output: the thread id from start, a table from list and log, markdown from read", async () => {
    const thread = (await temp.uwf(["start", LINEAR, "-p", "Write hello.txt"])).stdout.trim();
    expect(thread).toMatch(/^[0-9A-Z]{26}$/);
    await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED]);
    const list = await temp.uwf(["list"]);
    expect(list.stdout).toMatch(/THREAD\s+STATUS\s+WORKFLOW/);
    expect(list.stdout).toContain(thread);
    const log = await temp.uwf(["log", thread.slice(0, 10)]);
    expect(log.stdout).toMatch(/1\s+\w{13}\s+planner/);
    const read = await temp.uwf(["read", thread]);
    expect(read.stdout).toContain("## Task");
    expect(read.stdout).toContain("## Step 1 · planner");
    expect(read.stdout).toContain("## Step 2 · doer");
    expect(read.stdout).toContain("Wrote hello.txt.");
  });

  it("accepts a prompt that begins with a dash", async () => {
    const spellings: string[][] = [["-p", "-x"], ["-p=-x"]];
    for (const args of spellings) {
      const started = await temp.uwf(["start", LINEAR, ...args, "--json"]);
      expect(started.exitCode).toBe(0);
      const head = startResultSchema.parse(started.json()).head;
      const node = (await temp.uwf(["cas", "get", head])).json() as { prompt: string };
      expect(node.prompt).toBe("-x");
    }
  });

  it("lists threads with filters and paging", async () => {
    const threads: string[] = [];
    for (let index = 0; index < 3; index++) threads.push(await start());
    await temp.uwf(["step", threads[0] ?? "", "--all", "--agent", SCRIPTED]);
    const all = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    expect(all.total).toBe(3);
    expect(all.threads.map((thread) => thread.id)).toEqual([...threads].reverse());
    const ended = listResultSchema.parse((await temp.uwf(["list", "--status", "ended", "--json"])).json());
    expect(ended.threads.map((thread) => thread.id)).toEqual([threads[0] ?? ""]);
    const page = listResultSchema.parse((await temp.uwf(["list", "--limit", "1", "--offset", "1", "--json"])).json());
    expect(page.threads.map((thread) => thread.id)).toEqual([threads[1] ?? ""]);
    expect(page.total).toBe(3);
    const none = listResultSchema.parse((await temp.uwf(["list", "--workflow", "other", "--json"])).json());
    expect(none.total).toBe(0);
    const bad = await temp.uwf(["list", "--status", "sleeping"]);
    expect(bad.exitCode).toBe(2);
  });

  it("lists the other threads and flags one whose head object is corrupt", async () => {
    const healthy = await start();
    const broken = await start();
    await temp.uwf(["step", broken, "--agent", SCRIPTED]);
    const record = shownThreadSchema.parse((await temp.uwf(["show", broken, "--json"])).json());
    const file = join(temp.home, "objects", record.head.slice(0, 2), `${record.head.slice(2)}.json`);
    const bytes = readFileSync(file, "utf8");
    await Bun.write(file, bytes.replace("planner", "plannex"));
    const result = await temp.uwf(["list", "--json"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(broken);
    const listed = listResultSchema.parse(result.json());
    expect(listed.threads.find((thread) => thread.id === broken)?.status).toBe("corrupt");
    expect(listed.threads.find((thread) => thread.id === healthy)?.status).toBe("active");
  });
});
