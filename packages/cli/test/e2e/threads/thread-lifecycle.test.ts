import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { forkResultSchema, logResultSchema, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { fixtureWorkflow, scriptedFixture, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** A thread of the fixture workflow `name`, its scenario the home's default agent: every step plays it. */
function start(name: string, prompt = "The task"): Promise<string> {
  temp.writeConfig(`defaultAgent: "${scriptedFixture(name)}"\n`);
  return temp.startThread(fixtureWorkflow(name), prompt);
}

const record = (thread: string) => temp.showThread(thread);

describe("suspend and resume", () => {
  it("suspends on $SUSPEND, refuses steps with exit 20, and resumes with the answer", async () => {
    const thread = await start("ask");
    const suspended = await temp.uwf(["step", thread, "--json"]);
    expect(suspended.exitCode).toBe(20);
    expect(stepResultSchema.parse(suspended.json()).status).toBe("suspended");
    expect((await record(thread)).reason).toBe("Which colour do you mean?");

    const refused = await temp.uwf(["step", thread]);
    expect(refused.exitCode).toBe(20);
    expect(refused.stderr).toContain("Which colour do you mean?");

    const resumed = await temp.uwf(["resume", thread, "-p", "The sky's colour", "--json"]);
    expect(resumed.exitCode).toBe(0);
    const result = stepResultSchema.parse(resumed.json());
    expect(result.steps[0]?.role).toBe("asker");
    expect(result.steps[0]?.output).toEqual({ answer: "blue" });
    expect(result.status).toBe("ended");
    const step = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", result.head])).json());
    expect(step.edgePrompt).toContain("Which colour do you mean?");
    expect(step.edgePrompt).toContain("The sky's colour");

    const ended = await temp.uwf(["step", thread]);
    expect(ended.exitCode).toBe(10);
    expect((await record(thread)).status).toBe("ended");
  });

  it("continues an ended thread through the workflow's $START resume edge", async () => {
    const thread = await start("reopen");
    await temp.uwf(["step", thread, "--all"]);
    const ended = await record(thread);
    expect(ended.status).toBe("ended");

    const resumed = await temp.uwf(["resume", thread, "-p", "Add a second part", "--json"]);
    expect(resumed.exitCode).toBe(0);
    const result = stepResultSchema.parse(resumed.json());
    expect(result.steps[0]?.output).toEqual({ result: "second" });
    const step = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", result.head])).json());
    expect(step.prev).toBe(ended.head);
    expect(step.edgePrompt).toContain("Continue where you left off.");
    expect(step.edgePrompt).toContain("Add a second part");
  });

  it("refuses to resume an ended thread whose workflow has no resume edge", async () => {
    const thread = await start("linear");
    await temp.uwf(["step", thread, "--all"]);
    const before = await record(thread);
    const resumed = await temp.uwf(["resume", thread, "-p", "more"]);
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr).toMatch(/resume/);
    expect((await record(thread)).head).toBe(before.head);
  });

  it("refuses steps on a cancelled thread", async () => {
    const thread = await start("linear");
    expect((await temp.uwf(["cancel", thread])).exitCode).toBe(0);
    const stepped = await temp.uwf(["step", thread]);
    expect(stepped.exitCode).toBe(1);
    expect(stepped.stderr).toContain("cancelled");
  });
});

describe("fork", () => {
  it("forks from the start, a middle step and the end; each fork continues on its own", async () => {
    const thread = await start("linear");
    await temp.uwf(["step", thread, "--all"]);
    const original = await record(thread);
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    const [planner, doer] = log.steps;
    if (planner === undefined || doer === undefined) throw new Error("expected two steps");

    const fromStart = forkResultSchema.parse((await temp.uwf(["fork", original.start, "--json"])).json());
    const fromMiddle = forkResultSchema.parse((await temp.uwf(["fork", planner.address, "--json"])).json());
    const fromEnd = forkResultSchema.parse((await temp.uwf(["fork", doer.address.toLowerCase(), "--json"])).json());
    expect(fromMiddle.forkedFrom.address).toBe(planner.address);
    expect(fromEnd.head).toBe(doer.address);

    // From the start the scenario replays from its first entry (steps already in the chain: 0).
    const startStep = stepResultSchema.parse((await temp.uwf(["step", fromStart.thread, "--json"])).json());
    expect(startStep.steps[0]?.role).toBe("planner");
    const middleStep = stepResultSchema.parse((await temp.uwf(["step", fromMiddle.thread, "--json"])).json());
    expect(middleStep.steps[0]?.role).toBe("doer");
    const middleNode = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", middleStep.head])).json());
    expect(middleNode.prev).toBe(planner.address);
    // The end step routes to $END, so its fork has ended too.
    expect((await record(fromEnd.thread)).status).toBe("ended");
    expect((await temp.uwf(["step", fromEnd.thread])).exitCode).toBe(10);

    const after = await record(thread);
    expect(after.head).toBe(original.head);
    expect(after.updatedAt).toBe(original.updatedAt);
  });

  it("records a replacement reply with --output as a new step on the same prev", async () => {
    const thread = await start("linear");
    await temp.uwf(["step", thread, "-n", "2"]);
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    const doer = log.steps[1];
    if (doer === undefined) throw new Error("expected a doer step");
    const file = join(temp.work, "reply.md");
    await Bun.write(file, "---\ndone: false\n---\nWhat if it had failed?\n");
    const forked = forkResultSchema.parse((await temp.uwf(["fork", doer.address, "--output", file, "--json"])).json());
    expect(forked.head).not.toBe(doer.address);
    const replacement = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", forked.head])).json());
    const originalNode = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", doer.address])).json());
    expect(replacement.prev).toBe(originalNode.prev);
    expect(replacement.role).toBe("doer");
    const output = (await temp.uwf(["cas", "get", replacement.output])).json() as { fields: unknown };
    expect(output.fields).toEqual({ done: false });
    const invalid = join(temp.work, "bad.md");
    await Bun.write(invalid, "---\ndone: maybe\n---\n");
    const refused = await temp.uwf(["fork", doer.address, "--output", invalid]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("done");
  });

  it("rejects a malformed address with a usage error", async () => {
    const result = await temp.uwf(["fork", "../etc/passwd"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("not a node address");
  });
});
