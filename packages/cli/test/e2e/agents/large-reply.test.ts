import { describe, expect, it } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { startResultSchema, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      [
        "agents:",
        "  big:",
        "    command: sh",
        `    args: ["${join(FIXTURES, "agents/big-reply.sh")}"]`,
        "  planner:",
        "    command: sh",
        `    args: ["${join(FIXTURES, "agents/plan-then-do.sh")}"]`,
      ].join("\n"),
    ),
});

describe("a 50 MB reply", () => {
  it("is stored whole as the step's body", async () => {
    const started = await temp.uwf(["start", join(FIXTURES, "workflows/linear.yaml"), "-p", "Big", "--json"]);
    const thread = startResultSchema.parse(started.json()).thread;
    expect((await temp.uwf(["step", thread, "--agent", "planner"])).exitCode).toBe(0);
    const stepped = await temp.uwf(["step", thread, "--agent", "big", "--json"]);
    expect(stepped.exitCode).toBe(0);
    const head = stepResultSchema.parse(stepped.json()).head;
    const step = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", head])).json());
    const file = join(temp.home, "objects", step.body.slice(0, 2), `${step.body.slice(2)}.json`);
    expect(statSync(file).size).toBeGreaterThan(50_000_000);
    const body = await temp.uwf(["show", head, "--reply"]);
    expect(body.stdout.length).toBeGreaterThan(50_000_000);
    expect(body.stdout.trimEnd().endsWith("END-OF-REPLY")).toBe(true);
  });
});
