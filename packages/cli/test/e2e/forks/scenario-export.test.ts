import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  forkResultSchema,
  logResultSchema,
  scenarioDocumentSchema,
  scenarioExportResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { parse as parseYaml } from "yaml";
import { REOPEN_WORKFLOW } from "../../../../../test/kit/workflow/reopen-workflow.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { FIXTURES, fixtureAgentsConfig, useTempHome } from "../../helpers/temp-home.ts";

// A real command agent (a shell script) makes the threads; `uwf scenario export` writes them as a scenario;
// `uwf run --agent scripted:FILE` must play them back to the same chains: same roles, edge prompts, outputs,
// bodies, answers, branches, status and outcome.
const LIST = join(FIXTURES, "workflows/scenario-list.yaml");
const MAP = join(FIXTURES, "workflows/scenario-map.yaml");
const PLAYER = ["--agent", "scenario-player"];

const temp = useTempHome({ setUp: (home) => home.writeConfig(fixtureAgentsConfig(["scenario-player"]).join("\n")) });

interface ChainStep {
  role: string;
  edgePrompt: string;
  /** The output's and body's addresses: equal addresses are equal contents. */
  output: string;
  body: string;
  answer: string | null;
}

interface Chain {
  start: string;
  status: string;
  outcome: unknown;
  next: string | null;
  reason: string | null;
  steps: ChainStep[];
  branches: Array<{ step: number; join: string; branches: Array<{ key: string; status: string; chain: Chain }> }>;
}

/** What a thread is, as `show --json`, `log --json` and `show STEP --json` report it: everything but thread ids and times. */
async function chainOf(thread: string): Promise<Chain> {
  const shown = await temp.showThread(thread);
  const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
  const steps: ChainStep[] = [];
  for (const { address } of log.steps) {
    const { node } = (await temp.uwf(["show", address, "--json"])).json<{ node: Record<string, string> }>();
    steps.push({
      role: node.role as string,
      // A join's prompt names its branches' thread ids, which a played-back thread's branches cannot share.
      edgePrompt: (node.edgePrompt as string).replace(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, "THREAD"),
      output: node.output as string,
      body: node.body as string,
      answer: node.answer ?? null,
    });
  }
  const branches: Chain["branches"] = [];
  for (const group of shown.branches ?? []) {
    const views = [];
    for (const branch of group.branches) {
      views.push({ key: branch.key, status: branch.status, chain: await chainOf(branch.thread) });
    }
    branches.push({ step: group.step, join: group.join, branches: views });
  }
  return {
    start: shown.start,
    status: shown.status,
    outcome: shown.outcome ?? null,
    next: shown.next,
    reason: shown.reason,
    steps,
    branches,
  };
}

async function runThread(args: string[], expectedExit = 0): Promise<string> {
  const run = await temp.uwf(["run", ...args, "--json"]);
  expect(run.exitCode, run.stderr).toBe(expectedExit);
  return stepResultSchema.parse(run.json()).thread;
}

/** A scenario-list thread: rejected once, then suspended, then answered (`resume -p`) and approved. */
async function listThread(answer = "yes, ship it"): Promise<string> {
  const thread = await runThread([LIST, "-p", "Write a haiku", ...PLAYER], 20);
  const resumed = await temp.uwf(["resume", thread, "-p", answer, ...PLAYER, "--all"]);
  expect(resumed.exitCode, resumed.stderr).toBe(0);
  return thread;
}

describe("uwf scenario export", () => {
  it("exports a command agent's thread (ordered edges, JSONata conditions, an answered suspension) that uwf run plays back to the same chain", async () => {
    const original = await listThread();
    const file = join(temp.work, "haiku.scenario.yaml");
    const exported = await temp.uwf(["scenario", "export", original, "-o", file, "--json"]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(scenarioExportResultSchema.parse(exported.json())).toEqual({
      file,
      format: "yaml",
      threads: [{ thread: original, workflow: "scenario-list", steps: 5, answers: 1 }],
    });

    // Today's single-thread format, with the thread's start beside its steps, and nothing of the configuration.
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("scenario-player.sh");
    const scenario = scenarioDocumentSchema.parse(parseYaml(text));
    expect(scenario).toMatchObject({ thread: original, prompt: "Write a haiku", workflow: { name: "scenario-list" } });
    expect("steps" in scenario && scenario.steps.map((step) => [step.role, step.answer ?? null])).toEqual([
      ["writer", null],
      ["reviewer", null],
      ["writer", null],
      ["reviewer", null],
      ["reviewer", "yes, ship it"],
    ]);

    // One command plays it all: the suspension is answered with the recorded answer.
    const replay = await temp.uwf(["run", LIST, "-p", "Write a haiku", "--agent", `scripted:${file}`, "--json"]);
    expect(replay.exitCode, replay.stderr).toBe(0);
    const result = stepResultSchema.parse(replay.json());
    expect(result.steps.map((step) => step.role)).toEqual(["writer", "reviewer", "writer", "reviewer", "reviewer"]);
    const played = await chainOf(result.thread);
    expect(played).toEqual(await chainOf(original));
    expect(played).toMatchObject({ status: "ended", outcome: { role: "reviewer", edge: { condition: "approved" } } });
  });

  it("exports a $status-keyed workflow's thread with branches and a typed answer as JSON, played back to the same chain and branches", async () => {
    const original = await runThread([MAP, "-p", "Cache sessions", ...PLAYER], 20);
    const answered = await temp.uwf([
      "resume",
      original,
      "--answer",
      '{"approved": true, "comment": "after the freeze"}',
      ...PLAYER,
      "--all",
    ]);
    expect(answered.exitCode, answered.stderr).toBe(0);

    const file = join(temp.work, "plan.scenario.json");
    expect((await temp.uwf(["scenario", "export", original, "-o", file])).exitCode).toBe(0);
    const scenario = scenarioDocumentSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    expect("steps" in scenario && scenario.steps.map((step) => [step.role, step.branch ?? null])).toEqual([
      ["planner", null],
      ["merger", null],
      ["gate", null],
      ["gate", null],
      ["checker", "security"],
      ["checker", "speed"],
    ]);
    expect("steps" in scenario && scenario.steps[3]?.answer).toEqual({ approved: true, comment: "after the freeze" });

    const played = await runThread([MAP, "-p", "Cache sessions", "--agent", `scripted:${file}`]);
    const chain = await chainOf(played);
    expect(chain).toEqual(await chainOf(original));
    expect(chain.branches[0]?.branches.map((branch) => branch.key)).toEqual(["security", "speed"]);
    expect(chain.steps.at(-1)?.answer).not.toBeNull();
    expect(chain).toMatchObject({ status: "ended", outcome: { role: "gate", status: "go" } });
  });

  it("exports a thread and its forks into one file, and scripted:FILE#THREAD plays each of them back", async () => {
    const original = await listThread();
    const log = logResultSchema.parse((await temp.uwf(["log", original, "--json"])).json());
    const third = log.steps[2]?.address as string;
    const forked = await temp.uwf(["fork", third, "--json"]);
    expect(forked.exitCode, forked.stderr).toBe(0);
    const fork = forkResultSchema.parse(forked.json()).thread;
    expect((await temp.uwf(["step", fork, ...PLAYER, "--all"])).exitCode).toBe(20);
    expect((await temp.uwf(["resume", fork, "-p", "no, wait", ...PLAYER, "--all"])).exitCode).toBe(0);

    const file = join(temp.work, "family.scenario.json");
    const exported = await temp.uwf(["scenario", "export", "--forks-of", original, "-o", file, "--json"]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const result = scenarioExportResultSchema.parse(exported.json());
    expect(result.threads.map((thread) => thread.thread)).toEqual([original, fork]);
    const scenario = scenarioDocumentSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    expect("threads" in scenario && scenario.threads.map((thread) => thread.thread)).toEqual([original, fork]);

    for (const [thread, answer] of [
      [original, "yes, ship it"],
      [fork, "no, wait"],
    ] as const) {
      const played = await runThread([LIST, "-p", "Write a haiku", "--agent", `scripted:${file}#${thread}`]);
      const chain = await chainOf(played);
      expect(chain).toEqual(await chainOf(thread));
      expect(chain.steps.at(-1)?.edgePrompt).toEndWith(answer);
    }

    // A file of several threads needs one picked: the step fails, naming the way to pick and the threads.
    const unpicked = await temp.uwf(["run", LIST, "-p", "Write a haiku", "--agent", `scripted:${file}`]);
    expect(unpicked.exitCode).toBe(1);
    expect(unpicked.stderr).toContain(`holds 2 threads: pick one with scripted:${file}#THREAD (${original}, ${fork})`);
  });

  it("plays back a thread continued after it ended (resume -p through the $START resume edge)", async () => {
    const original = await runThread([REOPEN_WORKFLOW, "-p", "the report", ...PLAYER]);
    expect((await temp.uwf(["resume", original, "-p", "add a summary", ...PLAYER])).exitCode).toBe(0);
    const file = join(temp.work, "reopen.scenario.yaml");
    expect((await temp.uwf(["scenario", "export", original, "-o", file])).exitCode).toBe(0);
    const played = await runThread([REOPEN_WORKFLOW, "-p", "the report", "--agent", `scripted:${file}`]);
    const chain = await chainOf(played);
    expect(chain).toEqual(await chainOf(original));
    expect(chain.steps.map((step) => step.edgePrompt)).toEqual([
      "Do: the report",
      "Go on with: the report\n\nadd a summary",
    ]);
  });

  it("prints the scenario on stdout without -o: YAML, or the JSON document under --json", async () => {
    const original = await listThread();
    const yaml = await temp.uwf(["scenario", "export", original]);
    expect(yaml.exitCode, yaml.stderr).toBe(0);
    const json = await temp.uwf(["scenario", "export", original, "--json"]);
    expect(json.exitCode, json.stderr).toBe(0);
    const document = scenarioDocumentSchema.parse(json.json());
    expect(scenarioDocumentSchema.parse(parseYaml(yaml.stdout))).toEqual(document);

    // What stdout gave is a scenario as it is.
    const file = join(temp.work, "piped.scenario.yaml");
    writeFileSync(file, yaml.stdout);
    const played = await runThread([LIST, "-p", "Write a haiku", "--agent", `scripted:${file}`]);
    expect(await chainOf(played)).toEqual(await chainOf(original));
  });

  it("refuses an unknown thread (exit 1, thread-not-found), no thread at all and an -o in no folder (exit 2), writing no file", async () => {
    const file = join(temp.work, "never.yaml");
    const unknown = await temp.uwf(["scenario", "export", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "-o", file, "--json"]);
    expect(unknown.exitCode).toBe(1);
    expect(errorOf(unknown.stderr)).toMatchObject({
      code: "thread-not-found",
      data: { thread: "01ZZZZZZZZZZZZZZZZZZZZZZZZ" },
    });
    const text = await temp.uwf(["scenario", "export", "NOPE"]);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain('no thread "NOPE"');
    expect(text.stdout).toBe("");
    const nowhere = await temp.uwf(["scenario", "export", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "-o", join(file, "x.yaml")]);
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toContain(`the folder ${file} does not exist`);
    const none = await temp.uwf(["scenario", "export"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("--forks-of");
    expect(await Bun.file(file).exists()).toBe(false);
  });
});
