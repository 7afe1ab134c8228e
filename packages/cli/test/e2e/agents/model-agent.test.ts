import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  fakeRefusalReply,
  fakeStreamErrorReply,
  fakeTextReply,
  fakeToolUseReply,
  startFakeAnthropicServer,
} from "@uwf/agent-kit/test";
import { shownThreadSchema, stepResultSchema, transcriptNodeSchema } from "@uwf/protocol";
import { getNode, runOfStep } from "../../helpers/cas-nodes.ts";
import { useTempHomeWithFakeApi } from "../../helpers/fake-api-home.ts";
import {
  FAKE_MODEL_ENV,
  FAKE_MODEL_KEY,
  FAKE_MODEL_KEY_VARIABLE,
  fakeModelConfig,
} from "../../helpers/fake-model-api.ts";
import { FIXTURES } from "../../helpers/temp-home.ts";
import { expectHelloWorldRecords, expectHelloWorldRun, HELLO_WORLD_TURNS } from "./hello-world-run.ts";

const WORKFLOW = join(FIXTURES, "workflows/model-review.yaml");

// Strict (the default): a request the real Messages API would refuse gets its 400.
const { temp, server } = useTempHomeWithFakeApi(() => startFakeAnthropicServer({ apiKey: FAKE_MODEL_KEY }));

function writeConfig(extra: string[] = []): void {
  const models = {
    sonnet: { model: "claude-sonnet-5-5", prices: { input: 3, output: 15 } },
    haiku: { model: "claude-haiku-4-5", prices: { input: 1, output: 5 } },
  };
  temp.writeConfig(fakeModelConfig(server.url, { models, extra }));
}

const KEY_VARIABLE = FAKE_MODEL_KEY_VARIABLE;
const env = FAKE_MODEL_ENV;

describe("the built-in anthropic agent, end to end against the fake Messages API", () => {
  it("runs a two-role workflow to its end: tools change files, the writer's second visit continues its conversation, usage is summed", async () => {
    writeConfig();
    server.enqueue(
      ...HELLO_WORLD_TURNS.map((turn) => {
        const usage = { input_tokens: turn.usage.input, output_tokens: turn.usage.output };
        return "text" in turn ? fakeTextReply(turn.text, usage) : fakeToolUseReply(turn.tools, { usage });
      }),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--json"], { env });
    const result = expectHelloWorldRun(temp, run);
    expect(server.remaining()).toBe(0);

    // The writer's second visit starts from its first conversation, then the new prompt.
    const secondVisit = server.messageRequests()[3]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(secondVisit.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(JSON.stringify(secondVisit.messages[1]?.content)).toContain('"name":"write_file"');
    expect(JSON.stringify(secondVisit.messages[3]?.content)).toContain("summary: wrote hello.txt");
    expect(JSON.stringify(secondVisit.messages[4]?.content)).toContain("Address the review: say hello world");
    // Continuing its conversation, the writer is not sent the history twice: only the reviewer's step since.
    const newTurn = JSON.stringify(secondVisit.messages[4]?.content);
    expect(newTurn).toContain("This conversation holds the thread up to there");
    expect(newTurn).toContain("## Step 2: reviewer");
    expect(newTurn).not.toContain("## Step 1");
    expect(newTurn).not.toContain("I wrote the file.");
    // The reviewer's first visit did not see the writer's conversation.
    expect((server.messageRequests()[2]?.body as { messages: unknown[] } | undefined)?.messages).toHaveLength(1);
    expect(JSON.stringify(server.requests)).not.toContain(FAKE_MODEL_KEY);

    // Usage and cost per step, summed per thread: 8000 input tokens at $3, 230 output at $15 per million.
    const perStep = result.steps.map((step) => step.usage?.costUsd);
    expect(perStep).toEqual([0.00885, 0.0027, 0.01305, 0.00285]);
    const shown = await temp.uwf(["show", result.thread]);
    expect(shown.stdout).toContain(`8,000 in · 230 out · $${(0.02745).toFixed(4)}`);
    const log = await temp.uwf(["log", result.thread]);
    expect(log.stdout).toContain(`2,200 in · 150 out · $${(0.00885).toFixed(4)}`);

    // The thread's usage summed; the run records the transcript (tool calls, results, usage per turn) and the extraction.
    await expectHelloWorldRecords(temp, result, 0.02745);
    expect((await runOfStep(temp, result.steps[0]?.address ?? "")).extraction).toBe("frontmatter");
  }, 60_000);

  it("continues the writer's conversation from the fork point in a forked thread", async () => {
    writeConfig();
    server.enqueue(
      fakeTextReply("---\nsummary: first draft\n---\n"),
      fakeTextReply("---\n$status: rejected\ncomments: shorter\n---\n"),
      fakeTextReply("---\nsummary: second draft\n---\n"),
    );
    const started = await temp.uwf(["start", WORKFLOW, "-p", "Draft", "--json"]);
    const thread = (started.json() as { thread: string }).thread;
    const stepped = stepResultSchema.parse((await temp.uwf(["step", thread, "-n", "3", "--json"], { env })).json());
    expect(stepped.steps).toHaveLength(3);

    const fork = await temp.uwf(["fork", stepped.steps[1]?.address ?? "", "--json"]);
    const forked = (fork.json() as { thread: string }).thread;
    server.enqueue(fakeTextReply("---\nsummary: draft in the fork\n---\n"));
    const inFork = await temp.uwf(["step", forked, "--json"], { env });
    expect(inFork.exitCode).toBe(0);
    const request = JSON.stringify(
      (server.messageRequests()[3]?.body as { messages: unknown[] } | undefined)?.messages,
    );
    expect(request).toContain("summary: first draft");
    expect(request).not.toContain("second draft");
    expect(request).toContain("Address the review: shorter");
  }, 60_000);

  it("fails the step at once on a refused key, telling how to set it", async () => {
    writeConfig();
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt"], { env: { [KEY_VARIABLE]: "wrong-key" } });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`the API key in ${KEY_VARIABLE} was refused`);
    expect(run.stderr).toContain(`export ${KEY_VARIABLE}=…`);
    expect(run.stderr).toContain("uwf setup");
    expect(run.stderr).not.toContain("wrong-key");
    expect(server.requests.map((request) => request.status)).toEqual([401]);
  }, 60_000);

  it("falls back to LLM extraction when the reply still has no frontmatter", async () => {
    writeConfig(["extractionModel: haiku", "retries: 1"]);
    server.enqueue(
      fakeTextReply("I wrote hello.txt as asked."),
      // The retry continues the conversation with the problem alone.
      fakeTextReply("Done: hello.txt exists."),
      // The extraction model is made to call report_fields.
      fakeToolUseReply(
        { name: "report_fields", input: { summary: "wrote hello.txt" } },
        { usage: { input_tokens: 300, output_tokens: 20 } },
      ),
    );
    const step = await temp.uwf(["start", WORKFLOW, "-p", "Create hello.txt", "--json"]);
    const thread = (step.json() as { thread: string }).thread;
    const stepped = await temp.uwf(["step", thread, "--json"], { env });
    expect(stepped.exitCode).toBe(0);
    const output = (stepped.json() as { steps: Array<{ output: unknown; address: string }> }).steps[0];
    expect(output?.output).toEqual({ summary: "wrote hello.txt" });

    const retry = server.messageRequests()[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(retry.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(retry.messages[2]?.content)).toContain("frontmatter");
    const extraction = server.messageRequests()[2]?.body as Record<string, unknown>;
    expect(extraction.model).toBe("claude-haiku-4-5");
    expect(extraction.tool_choice).toEqual({ type: "tool", name: "report_fields" });
    expect(JSON.stringify(extraction.tools)).toContain('"summary"');
    // The role's schema carries $status, which the API refuses as a property key: it is sent as status.
    const sentSchema = (extraction.tools as Array<{ input_schema: { properties: object } }>)[0]?.input_schema;
    expect(Object.keys(sentSchema?.properties ?? {})).toEqual(["summary", "status", "reason"]);

    const run = await runOfStep(temp, output?.address ?? "");
    expect(run.extraction).toBe("llm");
    expect(run.attempts).toHaveLength(2);
    expect(run.outcome).toBe("ok");
    // 2 × (10 in, 5 out) at sonnet's prices, plus the extraction at haiku's.
    expect(run.usage).toMatchObject({ inputTokens: 320, outputTokens: 30 });
  }, 60_000);

  it("fails without an extraction model when the reply has no frontmatter", async () => {
    writeConfig(["retries: 0"]);
    server.enqueue(fakeTextReply("No frontmatter here."));
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt"], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("reply still invalid after 1 attempt(s)");
    expect(server.requests).toHaveLength(1);
  }, 60_000);

  it("counts the usage of a run that fails into the thread's totals, shown apart in show and log", async () => {
    writeConfig(["retries: 1"]);
    server.enqueue(
      fakeToolUseReply(
        { name: "list_files", input: { path: "." } },
        { usage: { input_tokens: 100, output_tokens: 10 } },
      ),
      fakeTextReply("Done, but no frontmatter.", { input_tokens: 200, output_tokens: 20 }),
      fakeTextReply("Still no frontmatter.", { input_tokens: 300, output_tokens: 30 }),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt"], { env });
    expect(run.exitCode).toBe(1);
    const [listed] = (await temp.uwf(["list", "--json"])).json<{ threads: Array<{ id: string }> }>().threads;
    const shown = shownThreadSchema.parse((await temp.uwf(["show", listed?.id ?? "", "--json"])).json());
    expect(shown.stepCount).toBe(0);
    expect(shown.usage.inputTokens).toBe(600);
    expect(shown.usage.outputTokens).toBe(60);
    expect(shown.usage.costUsd).toBeGreaterThan(0);
    expect(shown.failedUsage).toEqual(shown.usage);
    expect((await temp.uwf(["show", shown.id])).stdout).toContain("failed runs ");
    const log = await temp.uwf(["log", shown.id, "--json"]);
    expect(log.json<{ failedUsage: unknown }>().failedUsage).toEqual(shown.usage);
    expect((await temp.uwf(["log", shown.id])).stdout).toContain("failed runs (not steps): 600 in · 60 out");
  }, 60_000);

  it("extracts $status through the wire-safe name status, and routes on it", async () => {
    writeConfig(["extractionModel: haiku", "retries: 0"]);
    server.enqueue(
      fakeTextReply("---\nsummary: wrote hello.txt\n---\n"),
      fakeTextReply("Looks good to me, approved."),
      fakeToolUseReply({ name: "report_fields", input: { status: "approved", comments: "looks good" } }),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--json"], { env });
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.status).toBe("ended");
    expect(result.steps[1]?.output).toEqual({ $status: "approved", comments: "looks good" });
    const extraction = server.messageRequests()[2]?.body as { tools: Array<{ input_schema: unknown }> };
    expect(extraction.tools[0]?.input_schema).toMatchObject({
      properties: { status: { enum: ["approved", "rejected"] } },
      required: ["status", "comments"],
    });
  }, 60_000);

  it("keeps stderr empty under -q --json: a mid-stream overload is retried, the SDK's deprecation warning goes to the run's log", async () => {
    writeConfig();
    temp.writeConfig(
      readFileSync(join(temp.home, "config.yaml"), "utf8")
        .replace("models:\n", "models:\n  old: { provider: fake, model: claude-sonnet-4-5 }\n")
        .replace("defaultModel: sonnet", "defaultModel: old"),
    );
    server.enqueue(
      fakeStreamErrorReply("overloaded_error", { text: "---\nsumm" }),
      fakeTextReply("---\nsummary: wrote hello.txt\n---\n"),
      fakeTextReply("---\n$status: approved\ncomments: fine\n---\n"),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "-q", "--json"], { env });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.steps.map((step) => step.output)).toEqual([
      { summary: "wrote hello.txt" },
      { $status: "approved", comments: "fine" },
    ]);
    const writerRun = await runOfStep(temp, result.steps[0]?.address ?? "");
    const log = writerRun.attempts[0]?.stderrTail ?? "";
    expect(log).toContain(
      "turn 1: overloaded_error mid-stream (after HTTP 200): Overloaded (attempt 1 of 5); retrying in",
    );
    expect(log).toContain("SDK warning: The model 'claude-sonnet-4-5' is deprecated");
  }, 60_000);

  it("fails the step on a refusal, naming it, instead of retrying an empty reply", async () => {
    writeConfig();
    server.enqueue(fakeRefusalReply({ category: "cyber", explanation: "Declined." }));
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt"], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("the model refused to answer (stop_reason refusal, cyber: Declined.)");
    expect(server.messageRequests()).toHaveLength(1);
  }, 60_000);

  it("starts the writer's next visit afresh when its conversation no longer fits the model's window, and records why", async () => {
    writeConfig();
    temp.writeConfig(
      readFileSync(join(temp.home, "config.yaml"), "utf8").replace(
        "model: claude-sonnet-5-5,",
        "model: claude-sonnet-5-5, contextWindow: 6000, maxTokens: 1000,",
      ),
    );
    server.enqueue(
      fakeToolUseReply({ name: "write_file", input: { path: "big.txt", content: "y".repeat(6_000) } }),
      fakeTextReply("---\nsummary: wrote big.txt\n---\n"),
      fakeTextReply("---\n$status: rejected\ncomments: smaller please\n---\n"),
      fakeTextReply("---\nsummary: smaller now\n---\n"),
      fakeTextReply("---\n$status: approved\ncomments: good\n---\n"),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create big.txt", "--json"], { env });
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.status).toBe("ended");
    const secondVisit = server.messageRequests()[3]?.body as { messages: unknown[] };
    expect(secondVisit.messages).toHaveLength(1);
    expect(JSON.stringify(secondVisit.messages)).toContain("Address the review: smaller please");
    // A conversation started afresh gets the whole thread, not the steps since the writer's last visit.
    expect(JSON.stringify(secondVisit.messages)).toContain("## Step 1: writer (you)");
    expect(JSON.stringify(secondVisit.messages)).toContain("summary: wrote big.txt");
    expect(JSON.stringify(secondVisit.messages)).not.toContain("left out here");
    // Both later visits were measured before sending: the writer's did not fit, the reviewer's did.
    expect(server.requests.filter((request) => request.path === "/v1/messages/count_tokens")).toHaveLength(2);
    expect((server.messageRequests()[4]?.body as { messages: unknown[] } | undefined)?.messages).toHaveLength(3);
    const writerRun = await runOfStep(temp, result.steps[2]?.address ?? "");
    expect(writerRun.attempts[0]?.stderrTail).toContain(
      "starting a fresh conversation: the stored conversation and the new prompt take",
    );
    const transcript = transcriptNodeSchema.parse(await getNode(temp, writerRun.transcript ?? ""));
    expect(transcript.messages[0]).toMatchObject({ freshStart: expect.stringContaining("context window") });
  }, 60_000);
});
