import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type FakeAnthropicServer,
  fakeTextReply,
  fakeToolUseReply,
  startFakeAnthropicServer,
} from "@uwf/agent-kit/test";
import { waitFor } from "@uwf/cas/test";
import { errorOf } from "../../helpers/error-of.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

const WORKFLOW = join(FIXTURES, "workflows/model-review.yaml");
const KEY_VARIABLE = "UWF_E2E_CONFINEMENT_KEY";
/** The key `uwf setup` saves in the home's .env: the one the fake API accepts. */
const SAVED_KEY = "sk-ant-test-not-a-key-saved-by-setup";
/** Another key, only in uwf's environment. */
const ENVIRONMENT_KEY = "sk-ant-test-not-a-key-in-the-environment";
/** Each line takes JavaScript's backtracking engine up to about half a second: 2,000 of them, many minutes. */
const TRAP = `${"a".repeat(30)}b\n`.repeat(2000);
/** What the agent logs (with -v) for a search its step stopped, rather than its own time limit or its end. */
const SEARCH_STOPPED_BY_THE_STEP = "search_files (error): search_files stopped: the step was stopped";

let temp: TempHome;
let server: FakeAnthropicServer;
/** The project's home, `.uwf/` inside the thread's cwd, as `uwf setup` run in a project makes it. */
let home: string;
let env: Record<string, string>;
beforeEach(() => {
  temp = createTempHome();
  server = startFakeAnthropicServer({ apiKey: SAVED_KEY });
  home = join(temp.work, ".uwf");
  env = { UWF_HOME: home, ANTHROPIC_API_KEY: ENVIRONMENT_KEY };
});
afterEach(async () => {
  await server.close();
  temp.cleanup();
});

async function setUp(): Promise<string> {
  const setup = await temp.uwf(
    [
      "setup",
      "--provider",
      "fake",
      "--base-url",
      server.url,
      "--api-key-env",
      KEY_VARIABLE,
      "--api-key",
      "-",
      "--model",
      "claude-sonnet-5-5",
      "--agent",
      "anthropic",
      "--no-verify",
    ],
    { stdin: `${SAVED_KEY}\n`, env },
  );
  expect(setup.exitCode).toBe(0);
  expect(readFileSync(join(home, ".env"), "utf8")).toContain(SAVED_KEY);
  const started = await temp.uwf(["start", WORKFLOW, "-p", "Look around", "--json"], { env });
  expect(started.exitCode).toBe(0);
  return (started.json() as { thread: string }).thread;
}

/** A stream's text as it arrives, and when it ends. */
function collectText(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return { text: () => text, done };
}

/** Every tool result any request to the model carried (a retried request counts once per copy). */
function toolResultsSent(): unknown[] {
  return server.messageRequests().flatMap((request) => {
    const messages = (request.body as { messages?: Array<{ content: unknown }> }).messages ?? [];
    return messages.flatMap((message) =>
      Array.isArray(message.content)
        ? message.content.filter((block: { type?: unknown }) => block.type === "tool_result")
        : [],
    );
  });
}

/** Every file under `directory`, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The tool results the agent sent back after the first model turn, in call order. */
function toolResults(): Array<{ content: string; is_error?: boolean }> {
  const second = server.messageRequests()[1]?.body as { messages: Array<{ role: string; content: unknown }> };
  return second.messages.at(-1)?.content as Array<{ content: string; is_error?: boolean }>;
}

describe("the built-in agent's tools, end to end", () => {
  it("leak no key: not through run_command, the home's .env, a hard link, the store or the requests", async () => {
    const thread = await setUp();
    const outside = join(dirname(temp.work), "outside.txt");
    writeFileSync(outside, "outside\n");
    linkSync(outside, join(temp.work, "linked.txt"));
    mkdirSync(join(temp.work, "notes"));
    linkSync(join(home, ".env"), join(temp.work, "notes/key.txt"));
    server.enqueue(
      fakeToolUseReply([
        { name: "run_command", input: { command: "env" } },
        { name: "run_command", input: { command: "cat .uwf/.env; echo $UWF_HOME" } },
        { name: "read_file", input: { path: ".uwf/.env" } },
        { name: "read_file", input: { path: "notes/key.txt" } },
        { name: "search_files", input: { pattern: "sk-ant" } },
        { name: "search_files", input: { pattern: "sk-ant", path: ".uwf" } },
        { name: "write_file", input: { path: "linked.txt", content: "changed\n" } },
        { name: "list_files", input: { recursive: true } },
      ]),
      fakeTextReply("---\nsummary: looked around\n---\n"),
    );
    const step = await temp.uwf(["step", thread, "--json"], { env });
    expect(step.stderr).toBe("");
    expect(step.exitCode).toBe(0);

    const [environment, cat, dotenv, keyLink, search, searchHome, write, list] = toolResults();
    expect(environment?.content).toContain("UWF_THREAD=");
    expect(environment?.content).not.toContain("ANTHROPIC_");
    expect(environment?.content).not.toContain(KEY_VARIABLE);
    expect(environment?.content).not.toContain("UWF_HOME=");
    expect(cat?.content).toBe(`exit code 0\n${KEY_VARIABLE}="[redacted]"`);
    expect(dotenv).toMatchObject({ is_error: true, content: expect.stringContaining("is in the uwf home") });
    expect(keyLink).toMatchObject({ is_error: true, content: expect.stringContaining("hard link to the uwf home") });
    expect(search?.content).toBe("no matches");
    expect(searchHome).toMatchObject({ is_error: true, content: expect.stringContaining("is in the uwf home") });
    expect(write).toMatchObject({ is_error: true, content: expect.stringContaining("has 2 hard links") });
    expect(readFileSync(outside, "utf8")).toBe("outside\n");
    expect(list?.content).toContain(".uwf/");
    expect(list?.content).not.toContain(".uwf/.env");

    const requests = JSON.stringify(server.requests);
    const stored = filesUnder(join(home, "objects")).map((file) => readFileSync(file, "utf8"));
    expect(stored.length).toBeGreaterThan(0);
    for (const key of [SAVED_KEY, ENVIRONMENT_KEY]) {
      expect(requests).not.toContain(key);
      for (const text of stored) expect(text).not.toContain(key);
    }
  }, 60_000);

  // The search the model asks for would backtrack for many minutes, and on its own would be stopped at its
  // 30 s limit: stopped by the step instead (the agent's -v log says so), the step ended at its deadline or
  // signal. A search that held the step up would fail these, or time the test out.
  it("end a step at its --timeout while a search would backtrack for minutes", async () => {
    const thread = await setUp();
    writeFileSync(join(temp.work, "trap.txt"), TRAP);
    server.enqueue(fakeToolUseReply({ name: "search_files", input: { pattern: "^(a+)+$" } }));
    const step = await temp.uwf(["step", thread, "--timeout", "2", "--verbose", "--json"], { env });
    expect(step.exitCode).toBe(1);
    expect(step.stderr).toContain("timed out after 2 s");
    expect(step.stderr).toContain(SEARCH_STOPPED_BY_THE_STEP);
  }, 60_000);

  it("end a step on the first SIGTERM while a search would backtrack for minutes", async () => {
    const thread = await setUp();
    writeFileSync(join(temp.work, "trap.txt"), TRAP);
    server.enqueue(fakeToolUseReply({ name: "search_files", input: { pattern: "^(a+)+$" } }));
    const child = temp.spawn(["step", thread, "--verbose", "--json"], { env });
    const stderr = collectText(child.stderr as ReadableStream<Uint8Array>);
    // The agent logs the model's turn, naming the tools it called, just before it runs them.
    await waitFor(() => stderr.text().includes(", search_files\n"), { what: "the model's call of search_files" });
    child.kill("SIGTERM");
    expect(await child.exited).toBe(130);
    await stderr.done;
    expect(stderr.text()).toContain(SEARCH_STOPPED_BY_THE_STEP);
    // An interrupted step asks the model nothing more.
    expect(toolResultsSent()).toEqual([]);
    expect(errorOf(stderr.text()).code).toBe("interrupted");
  }, 60_000);
});
