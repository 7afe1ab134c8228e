import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import {
  casHasResultSchema,
  casPutResultSchema,
  casRefsResultSchema,
  casWalkResultSchema,
  configListResultSchema,
  configValueResultSchema,
  errorResultSchema,
  expandedNodeSchema,
  forkResultSchema,
  gcReportSchema,
  initResultSchema,
  listResultSchema,
  logResultSchema,
  readResultSchema,
  shownThreadSchema,
  showTextResultSchema,
  startResultSchema,
  stepResultSchema,
  threadStepNodeSchema,
  verifyReportSchema,
  waitResultSchema,
  workerResultSchema,
  workflowAddResultSchema,
  workflowListResultSchema,
  workflowShowResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { createTempHome, EXAMPLES, FIXTURES, LINEAR, SCRIPTED, type TempHome } from "../../helpers/temp-home.ts";

let temp: TempHome;
let thread: string;
let stepAddress: string;

beforeAll(async () => {
  temp = createTempHome();
  thread = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", "Task", "--json"])).json()).thread;
  const stepped = stepResultSchema.parse((await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"])).json());
  stepAddress = stepped.head;
});
afterAll(() => temp.cleanup());

/** Runs a command with --json and checks: exit code, exactly one JSON document on stdout, its schema. */
async function expectJson<Value>(
  args: string[],
  schema: { parse(value: unknown): Value },
  exitCode = 0,
): Promise<Value> {
  const result = await temp.uwf([...args, "--json"], {
    stdin: args[0] === "cas" && args[1] === "put" ? '{"b":1,"a":"x"}' : undefined,
  });
  expect({ args, exitCode: result.exitCode, stderr: result.stderr }).toEqual({ args, exitCode, stderr: "" });
  expect(result.stdout.trim().split("\n")).toHaveLength(1);
  return schema.parse(result.json());
}

describe("--json output", () => {
  it("matches the protocol schema for every thread command", async () => {
    await expectJson(["start", LINEAR, "-p", "Another"], startResultSchema);
    await expectJson(["thread", "start", LINEAR, "-p", "Via the thread synonym"], startResultSchema);
    await expectJson(["list"], listResultSchema);
    await expectJson(["thread", "list", "--limit", "1"], listResultSchema);
    await expectJson(["show", thread], shownThreadSchema);
    const expanded = await expectJson(["show", stepAddress], expandedNodeSchema);
    expect(threadStepNodeSchema.parse(expanded.node).role).toBe("planner");
    expect(expanded.output).toEqual({ plan: "write hello.txt" });
    await expectJson(["show", stepAddress, "--prompt"], showTextResultSchema);
    await expectJson(["show", stepAddress, "--reply"], showTextResultSchema);
    await expectJson(["log", thread], logResultSchema);
    await expectJson(["read", thread], readResultSchema);
    const forked = await expectJson(["fork", stepAddress], forkResultSchema);
    await expectJson(["step", forked.thread, "--agent", SCRIPTED], stepResultSchema);
    await expectJson(["run", LINEAR, "-p", "Run it", "--agent", SCRIPTED], stepResultSchema);
    const queued = await expectJson(["run", LINEAR, "-p", "For a worker", "--queue"], startResultSchema);
    await expectJson(["worker", "--once", "--agent", SCRIPTED], workerResultSchema);
    await expectJson(["wait", queued.thread], waitResultSchema);
    await expectJson(["list", "--running"], listResultSchema);
    // The fork's step (the doer's, routed to $END) ended it; the first thread is still active.
    await expectJson(["cancel", thread], shownThreadSchema);
  });

  it("matches the protocol schema for workflow, cas, config and init commands", async () => {
    await expectJson(["workflow", "add", LINEAR], workflowAddResultSchema);
    await expectJson(["workflow", "validate", join(EXAMPLES, "review-loop.yaml")], workflowValidateResultSchema);
    await expectJson(["workflow", "show", "linear"], workflowShowResultSchema);
    await expectJson(["workflow", "show", join(EXAMPLES, "triage.yaml"), "--mermaid"], workflowShowResultSchema);
    await expectJson(["workflow", "list"], workflowListResultSchema);
    const put = await expectJson(["cas", "put"], casPutResultSchema);
    expect(put.address).toBe("2SPNY716211N9");
    await expectJson(["cas", "has", put.address], casHasResultSchema);
    await expectJson(["cas", "has", "0000000000000"], casHasResultSchema, 1);
    await expectJson(["cas", "refs", stepAddress], casRefsResultSchema);
    await expectJson(["cas", "walk", stepAddress], casWalkResultSchema);
    await expectJson(["cas", "verify"], verifyReportSchema);
    await expectJson(["cas", "gc", "--dry-run"], gcReportSchema);
    await expectJson(["config", "set", "retries", "3"], configValueResultSchema);
    await expectJson(["config", "get", "retries"], configValueResultSchema);
    await expectJson(["config", "list"], configListResultSchema);
    await expectJson(["config", "unset", "retries"], configValueResultSchema);
    await expectJson(["init"], initResultSchema);
  });

  it("reports errors as one JSON document on stderr with the documented exit code", async () => {
    const cases: Array<[string[], number, string]> = [
      [["show", "NOSUCHTHREAD"], 1, "thread-not-found"],
      [["cas", "get", "ILOU"], 2, "invalid-address"],
      [["step", "--bogus-flag"], 2, "usage"],
      [["workflow", "validate", join(FIXTURES, "workflows/missing.yaml")], 1, ""],
    ];
    for (const [args, exitCode, code] of cases) {
      const result = await temp.uwf([...args, "--json"]);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode });
      if (code === "") continue;
      expect(result.stdout).toBe("");
      const error = errorResultSchema.parse(JSON.parse(result.stderr));
      expect(error.error.code).toBe(code);
    }
  });
});
