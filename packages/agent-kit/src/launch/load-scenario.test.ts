import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { parseScenarioReference, safeLoadScenario } from "./load-scenario.ts";
import { loadRecordedAnswer } from "./recorded-answer.ts";
import { runScriptedAgent } from "./scripted-agent.ts";

const FIRST = "01J9AAAAAAAAAAAAAAAAAAAAAA";
const SECOND = "01J9BBBBBBBBBBBBBBBBBBBBBB";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory();
  const thread = (id: string, answer: unknown, body: string) => ({
    thread: id,
    workflow: { name: "ask", address: "0000000000000" },
    prompt: "Pick a colour",
    steps: [
      { role: "asker", output: { $status: "$SUSPEND", reason: "Which one?" }, body: "I ask." },
      { role: "asker", answer, output: { answer: "blue" }, body },
    ],
  });
  writeFileSync(
    join(temp.path, "family.json"),
    JSON.stringify({ threads: [thread(FIRST, "blue", "Blue."), thread(SECOND, { approved: true }, "Typed.")] }),
  );
  writeFileSync(join(temp.path, "one.json"), JSON.stringify(thread(FIRST, "blue", "Blue.")));
});
afterEach(() => temp.remove());

describe("parseScenarioReference", () => {
  it("splits FILE#THREAD when what follows # is a thread id, and keeps any other # in the file name", () => {
    expect(parseScenarioReference(`a/b.json#${FIRST.toLowerCase()}`)).toEqual({ file: "a/b.json", thread: FIRST });
    expect(parseScenarioReference("a/b#c.json")).toEqual({ file: "a/b#c.json", thread: null });
    expect(parseScenarioReference("b.json")).toEqual({ file: "b.json", thread: null });
  });
});

describe("safeLoadScenario", () => {
  it("reads a one-thread file as before, with its recorded thread and answers", async () => {
    const loaded = await safeLoadScenario(join(temp.path, "one.json"));
    expect(loaded.success && loaded.value.thread).toBe(FIRST);
    expect(loaded.success && loaded.value.steps.map((step) => step.answer)).toEqual([null, "blue"]);
  });

  it("picks a thread of a file of several, and refuses to guess which one", async () => {
    const file = join(temp.path, "family.json");
    const picked = await safeLoadScenario(file, { thread: SECOND });
    expect(picked.success && picked.value.steps.map((step) => step.body)).toEqual(["I ask.", "Typed."]);
    const unpicked = await safeLoadScenario(file);
    expect(!unpicked.success && unpicked.error.message).toBe(
      `scenario ${file} holds 2 threads: pick one with scripted:${file}#THREAD (${FIRST}, ${SECOND})`,
    );
    const unknown = await safeLoadScenario(file, { thread: "01J9CCCCCCCCCCCCCCCCCCCCCC" });
    expect(!unknown.success && unknown.error.message).toBe(
      `scenario ${file} has no thread 01J9CCCCCCCCCCCCCCCCCCCCCC (it holds ${FIRST}, ${SECOND})`,
    );
    const other = await safeLoadScenario(join(temp.path, "one.json"), { thread: SECOND });
    expect(!other.success && other.error.message).toContain(`holds thread ${FIRST}, not ${SECOND}`);
  });

  it("refuses an answer that is neither text nor fields, naming the entry", async () => {
    const file = join(temp.path, "bad.yaml");
    writeFileSync(file, "threads:\n  - thread: X\n    steps:\n      - { role: asker, answer: [1, 2] }\n");
    const loaded = await safeLoadScenario(file);
    expect(!loaded.success && loaded.error.message).toBe(
      `scenario ${file}, threads[0], steps[0]: "answer" must be text, or a mapping of an answer's fields`,
    );
  });
});

describe("the scripted agent and recorded answers", () => {
  it("plays the thread FILE#THREAD names", async () => {
    const result = await runScriptedAgent({
      spec: { builtin: "scripted", scenario: `family.json#${SECOND}` },
      baseDir: temp.path,
      stepIndex: 1,
      routedRole: "asker",
    });
    expect(result.reply).toBe("---\nanswer: blue\n---\n\nTyped.\n");
  });

  it("gives the answer recorded for the step to play next, text or fields, and null where none is", async () => {
    const answer = (scenario: string, stepIndex: number) =>
      loadRecordedAnswer({ scenario, baseDir: temp.path, stepIndex });
    expect(await answer(`family.json#${FIRST}`, 1)).toEqual({ text: "blue" });
    expect(await answer(`family.json#${SECOND}`, 1)).toEqual({ fields: { approved: true } });
    expect(await answer(`family.json#${SECOND}`, 0)).toBeNull();
    expect(await answer(`family.json#${SECOND}`, 2)).toBeNull();
    expect(await answer("family.json", 1)).toBeNull();
  });
});
