import { afterAll, afterEach, beforeAll, describe, expect, it } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type StepResult, type TraceExportResult, traceExportResultSchema } from "@uwf/protocol";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../helpers/otlp-receiver.ts";
import {
  createTempHome,
  FIXTURES,
  fixtureAgentsConfig,
  LINEAR,
  SCRIPTED,
  type TempHome,
} from "../../helpers/temp-home.ts";

// OpenTelemetry export (docs/observability.md) from the compiled binary, as users run it: real steps
// with OTEL_EXPORTER_OTLP_ENDPOINT set, received by an OTLP/HTTP receiver on 127.0.0.1.

// The one npm test built for the run (UWF_TEST_BINARY), else the one `bun run build` leaves.
const BINARY = process.env.UWF_TEST_BINARY || resolve(import.meta.dir, "../../../dist/uwf");
const REVIEW = join(FIXTURES, "otel/review.yaml");
const REVIEW_AGENT = `scripted:${join(FIXTURES, "otel/review.scenario.yaml")}`;
const FAN_OUT = join(FIXTURES, "otel/fan-out.yaml");
const FAN_OUT_AGENT = `scripted:${join(FIXTURES, "otel/fan-out.scenario.yaml")}`;
/** The documented exit deadline: a dead collector costs a command at most this. */
const EXIT_DEADLINE_MS = 2000;

let temp: TempHome;
const receivers: OtlpReceiver[] = [];
beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`no ${BINARY}: run \`bun run build\` first`);
  temp = createTempHome({ binary: BINARY });
});
afterAll(() => temp.cleanup());
afterEach(() => {
  for (const receiver of receivers.splice(0)) receiver.stop();
});

function receiver(answer?: Parameters<typeof startOtlpReceiver>[0]): OtlpReceiver {
  const started = startOtlpReceiver(answer);
  receivers.push(started);
  return started;
}

function exporting(to: OtlpReceiver, more: Record<string, string> = {}): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: to.url, ...more };
}

async function threadOf(args: string[], env: Record<string, string>): Promise<{ thread: string; exitCode: number }> {
  const run = await temp.uwf([...args, "--json"], { env });
  if (![0, 20].includes(run.exitCode)) throw new Error(`uwf ${args.join(" ")} failed: ${run.stderr}`);
  return { thread: run.json<StepResult>().thread, exitCode: run.exitCode };
}

const bySpanId = (spans: readonly ReceivedSpan[]) => spans.toSorted((a, b) => a.spanId.localeCompare(b.spanId));

const stepSpans = (spans: readonly ReceivedSpan[], thread: string) =>
  spans.filter((span) => span.name.startsWith("invoke_agent ") && span.attributes["uwf.thread"] === thread);

describe("OpenTelemetry export", () => {
  it("sends a thread as one trace: a span per step with GenAI attributes, its retries, its suspension's wait and a fork's link", async () => {
    const collector = receiver();
    const env = exporting(collector, {
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_HEADERS: "x-team=uwf%20tests",
      OTEL_SERVICE_NAME: "docs-bot",
    });
    const run = await threadOf(["run", REVIEW, "-p", "Write notes", "--agent", REVIEW_AGENT], env);
    expect(run.exitCode).toBe(20);
    const { thread } = run;
    // A later process (the resume, then the steps) exports into the same trace.
    expect((await temp.uwf(["resume", thread, "-p", "the ops team", "--agent", REVIEW_AGENT], { env })).exitCode).toBe(
      0,
    );
    expect((await temp.uwf(["step", thread, "--all", "--agent", REVIEW_AGENT], { env })).exitCode).toBe(0);
    const spans = await collector.waitForSpans(6);

    expect(collector.requests.every((request) => request.path === "/v1/traces")).toBe(true);
    expect(collector.requests.map((request) => [request.contentType, request.encoding])).toEqual(
      collector.requests.map(() => ["application/x-protobuf", "protobuf"]),
    );
    expect(collector.requests.every((request) => request.headers["x-team"] === "uwf tests")).toBe(true);
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(["docs-bot"]));
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const steps = stepSpans(spans, thread);
    expect(steps.map((span) => span.name)).toEqual([
      "invoke_agent writer",
      "invoke_agent writer",
      "invoke_agent reviewer",
      "invoke_agent writer",
      "invoke_agent reviewer",
    ]);
    const log = (await temp.uwf(["log", thread, "--json"])).json<{ steps: { address: string }[] }>();
    expect(steps.map((span) => span.attributes["uwf.address"])).toEqual(log.steps.map((step) => step.address));
    for (const [index, span] of steps.entries()) {
      expect(span.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": span.name.slice("invoke_agent ".length),
        "uwf.agent": "scripted",
        "uwf.thread": thread,
        "uwf.workflow": "review",
        "uwf.step": index + 1,
      });
      expect(span.status.code).toBe(1);
      expect(span.parentSpanId).toBeNull();
      expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
    }
    expect(steps[0]?.attributes["uwf.status"]).toBe("$SUSPEND");

    // The refused first reply of step 2: a failed attempt, then the retry that counted.
    const retried = steps[1] as ReceivedSpan;
    expect(retried.attributes["uwf.attempts"]).toBe(2);
    expect(retried.events.map((event) => event.name)).toEqual(["uwf.attempt.failed", "uwf.retry"]);
    expect(retried.events[0]?.attributes).toMatchObject({ "uwf.attempt": 1, "error.type": "invalid_reply" });

    // The suspension's wait: from the asking step's end to the answer's start, under the asking step.
    const waits = spans.filter((span) => span.name === "suspension writer");
    expect(waits).toHaveLength(1);
    const wait = waits[0] as ReceivedSpan;
    expect(wait.parentSpanId).toBe(steps[0]?.spanId ?? "");
    expect(wait.attributes["uwf.suspension.resolution"]).toBe("answer");
    expect(wait.startMs).toBe(steps[0]?.endMs ?? 0);
    expect(wait.endMs).toBe(steps[1]?.startMs ?? 0);

    // Contents stay out without the opt-in: no prompt, reply, reason or refused text anywhere.
    const sent = collector.requests.map((request) => new TextDecoder().decode(request.body)).join("\n");
    for (const secret of [
      "gen_ai.input.messages",
      "gen_ai.output.messages",
      "SECRET",
      "Which audience",
      "Write notes",
    ]) {
      expect(sent).not.toContain(secret);
    }

    // A fork from step 3 is a trace of its own whose first step links to step 3's span.
    const forkPoint = log.steps[2]?.address ?? "";
    const fork = (await temp.uwf(["fork", forkPoint, "--json"], { env })).json<{ thread: string }>().thread;
    expect((await temp.uwf(["step", fork, "--agent", REVIEW_AGENT], { env })).exitCode).toBe(0);
    const withFork = await collector.waitForSpans(spans.length + 1);
    const forkSteps = stepSpans(withFork, fork);
    expect(forkSteps).toHaveLength(1);
    const forked = forkSteps[0] as ReceivedSpan;
    expect(forked.traceId).not.toBe(steps[0]?.traceId);
    expect(forked.attributes["uwf.step"]).toBe(4);
    expect(forked.links).toEqual([
      {
        traceId: steps[2]?.traceId ?? "",
        spanId: steps[2]?.spanId ?? "",
        attributes: expect.objectContaining({ "uwf.link": "forked-from", "uwf.thread": thread, "uwf.step": 3 }),
      },
    ]);

    // After the fact, `uwf trace export` sends the same spans, here as OTLP/JSON: decoded by the
    // OpenTelemetry protos, every span is the one the live protobuf export sent (names, ids, parents,
    // attributes, events, links, status, times).
    const replay = receiver();
    const exported = await temp.uwf(["trace", "export", thread, fork, "--endpoint", replay.url, "--json"], {
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "docs-bot" },
    });
    expect(exported.exitCode).toBe(0);
    const result: TraceExportResult = traceExportResultSchema.parse(exported.json());
    expect(result.spans).toBe(withFork.length);
    expect(result.threads.map((entry) => [entry.thread, entry.spans])).toEqual([
      [thread, 6],
      [fork, 1],
    ]);
    expect(replay.requests.map((request) => [request.path, request.contentType, request.encoding])).toEqual(
      replay.requests.map(() => ["/v1/traces", "application/json", "json"]),
    );
    expect(bySpanId(replay.spans())).toEqual(bySpanId(withFork));
    expect(replay.spans().find((span) => span.spanId === forked.spanId)?.links).toEqual(forked.links);
  });

  it("puts a fan-out's branch steps in the parent's trace, as children of the step that fanned out", async () => {
    const collector = receiver();
    const { thread } = await threadOf(
      ["run", FAN_OUT, "-p", "a cache", "--agent", FAN_OUT_AGENT],
      exporting(collector),
    );
    const spans = await collector.waitForSpans(4);
    // OTLP/protobuf is the default.
    expect(collector.requests.map((request) => [request.contentType, request.encoding])).toEqual(
      collector.requests.map(() => ["application/x-protobuf", "protobuf"]),
    );
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const parentSteps = stepSpans(spans, thread);
    expect(parentSteps.map((span) => span.name)).toEqual(["invoke_agent planner", "invoke_agent synthesizer"]);
    const fanOut = parentSteps[0] as ReceivedSpan;
    const branches = spans.filter((span) => span.attributes["uwf.branch.parent"] === thread);
    expect(branches.map((span) => span.attributes["uwf.branch.key"]).sort()).toEqual(["security", "speed"]);
    for (const branch of branches) {
      expect(branch.name).toBe("invoke_agent reviewer");
      expect(branch.parentSpanId).toBe(fanOut.spanId);
      expect(branch.attributes["uwf.thread"]).not.toBe(thread);
    }
    // Re-exported as OTLP/JSON (the traces variable beats the general one), the tree decodes to the same spans.
    const replay = receiver();
    const json = { OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" };
    expect((await temp.uwf(["trace", "export", thread, "--endpoint", replay.url], { env: json })).exitCode).toBe(0);
    expect(replay.requests.every((request) => request.encoding === "json")).toBe(true);
    expect(bySpanId(replay.spans())).toEqual(bySpanId(spans));
  });

  it("reports an agent's usage and model, and sends prompts and replies only with the opt-in", async () => {
    temp.writeConfig([...fixtureAgentsConfig(["reports-usage"]), "defaultAgent: reports-usage"].join("\n"));
    const plain = receiver();
    await threadOf(["run", LINEAR, "-p", "Write hello.txt"], exporting(plain));
    const [first] = await plain.waitForSpans(2);
    expect(first?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 1000,
      "gen_ai.usage.output_tokens": 200,
      "gen_ai.usage.cache_read.input_tokens": 50,
      "uwf.usage.cost_usd": 0.003,
      "uwf.agent": "reports-usage",
      "uwf.agent.kind": "command",
      "gen_ai.request.model": "some-cli-model",
      "gen_ai.response.model": "some-cli-model",
    });
    expect(first?.attributes["gen_ai.input.messages"]).toBeUndefined();

    const optIns: Record<string, string>[] = [
      { UWF_OTEL_CAPTURE_CONTENT: "true" },
      { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" },
    ];
    for (const optIn of optIns) {
      const collector = receiver();
      await threadOf(["run", LINEAR, "-p", "Write hello.txt"], exporting(collector, optIn));
      const [planner] = await collector.waitForSpans(2);
      const input = JSON.parse(String(planner?.attributes["gen_ai.input.messages"]));
      expect(input[0].role).toBe("user");
      expect(input[0].parts[0].content).toContain("Write hello.txt");
      const output = JSON.parse(String(planner?.attributes["gen_ai.output.messages"]));
      expect(output[0].parts[0].content).toContain("plan: step 1 plan");
    }
    temp.writeConfig("");
  });

  it("sends a step that failed after its retries as an ERROR span, and speaks OTLP/JSON when asked", async () => {
    temp.writeConfig(fixtureAgentsConfig(["always-invalid"]).join("\n"));
    const collector = receiver();
    const thread = await temp.startThread(LINEAR, "Write hello.txt");
    const env = exporting(collector);
    const failed = await temp.uwf(["step", thread, "--agent", "always-invalid"], { env });
    expect(failed.exitCode).toBe(1);
    const [span] = await collector.waitForSpans(1);
    expect(span?.name).toBe("invoke_agent planner");
    expect(span?.status).toEqual({ code: 2, message: "agent-failed" });
    expect(span?.attributes).toMatchObject({
      "error.type": "agent-failed",
      "uwf.agent": "always-invalid",
      "uwf.attempts": 3,
    });
    expect(span?.events.filter((event) => event.name === "uwf.attempt.failed")).toHaveLength(3);
    expect(span?.events.filter((event) => event.name === "uwf.retry")).toHaveLength(2);
    expect(collector.requests.map((request) => request.encoding)).toEqual(["protobuf"]);

    const json = receiver();
    const run = await threadOf(
      ["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED],
      exporting(json, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    );
    expect(json.requests.map((request) => [request.path, request.contentType, request.encoding])).toEqual([
      ["/v1/traces", "application/json", "json"],
    ]);
    const steps = json.spans();
    expect(steps.map((step) => [step.name, step.attributes["uwf.step"], step.status.code, step.parentSpanId])).toEqual([
      ["invoke_agent planner", 1, 1, null],
      ["invoke_agent doer", 2, 1, null],
    ]);
    expect(steps.every((step) => step.attributes["uwf.thread"] === run.thread)).toBe(true);
    temp.writeConfig("");
  });

  it("exports the steps a worker runs, into the trace of the thread it took", async () => {
    const collector = receiver();
    const queued = await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", "--queue", "--json"]);
    const { thread } = queued.json<{ thread: string }>();
    const worker = await temp.uwf(["worker", "--once", "--agent", SCRIPTED], { env: exporting(collector) });
    expect(worker.exitCode).toBe(0);
    const spans = await collector.waitForSpans(2);
    expect(stepSpans(spans, thread).map((span) => span.name)).toEqual(["invoke_agent planner", "invoke_agent doer"]);
    const replay = receiver();
    expect((await temp.uwf(["trace", "export", thread, "--endpoint", replay.url])).exitCode).toBe(0);
    expect(replay.spans().map((span) => span.spanId)).toEqual(spans.map((span) => span.spanId));
  });

  it("sends what a step committed before SIGTERM stopped the next one, and exits as a stopped step does", async () => {
    const agent = join(FIXTURES, "otel/agents/plan-then-hang.sh");
    temp.writeConfig(["agents:", "  hang:", "    command: sh", `    args: ["${agent}"]`].join("\n"));
    const collector = receiver();
    const pidFile = join(temp.work, "doer.pid");
    const running = temp.spawn(["run", LINEAR, "-p", "Write hello.txt", "--agent", "hang"], {
      env: exporting(collector, { PID_FILE: pidFile }),
    });
    while (!existsSync(pidFile)) await Bun.sleep(20);
    running.kill("SIGTERM");
    expect(await running.exited).toBe(130);
    const spans = collector.spans();
    expect(spans.map((span) => span.name)).toEqual(["invoke_agent planner"]);
    temp.writeConfig("");
  });

  it("exports a suspension's wait that `uwf tick` timed out, with the timeout step and the step it routed to", async () => {
    const wait = join(FIXTURES, "workflows/wait.yaml");
    const agent = `scripted:${join(FIXTURES, "workflows/wait.scenario.yaml")}`;
    const collector = receiver();
    const env = exporting(collector);
    const { thread, exitCode } = await threadOf(["run", wait, "-p", "Pick a colour", "--agent", agent], env);
    expect(exitCode).toBe(20);
    // The role's suspendTimeout is 2 s: tick (as a system cron would) until it has timed the wait out.
    for (;;) {
      const tick = await temp.uwf(["tick", "--agent", agent, "--json"], { env });
      expect(tick.exitCode).toBe(0);
      if (tick.json<{ expired: unknown[] }>().expired.length > 0) break;
      await Bun.sleep(250);
    }
    const spans = await collector.waitForSpans(4);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(stepSpans(spans, thread).map((span) => [span.name, span.attributes["uwf.agent"]])).toEqual([
      ["invoke_agent asker", "scripted"],
      ["invoke_agent asker", "$timeout"],
      ["invoke_agent chaser", "scripted"],
    ]);
    const waited = spans.find((span) => span.name === "suspension asker");
    expect(waited?.attributes["uwf.suspension.resolution"]).toBe("timeout");
    expect(waited?.endMs).toBeGreaterThanOrEqual((waited?.startMs ?? 0) + 2000);
  });

  it("sends nothing at all without an endpoint, or with OTEL_SDK_DISABLED=true", async () => {
    const collector = receiver();
    // OTEL_EXPORTER_OTLP_ENDPOINT is unset in this environment unless a test sets it.
    const unset = { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "" };
    await threadOf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED], unset);
    await threadOf(
      ["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED],
      exporting(collector, { OTEL_SDK_DISABLED: "true" }),
    );
    // Both processes have exited, and an exporting one sends before it exits: nothing came, nothing will.
    expect(collector.requests).toHaveLength(0);
  });

  it("never fails a step over a dead collector, and delays it by at most the exit deadline", async () => {
    const timed = async (env: Record<string, string>) => {
      const started = performance.now();
      const { thread } = await threadOf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED], env);
      return { thread, elapsed: performance.now() - started };
    };
    const baseline = await timed({});
    const closed = receiver();
    const closedUrl = closed.url;
    closed.stop();
    const silent = receiver("never");
    const refusing = receiver(503);
    for (const url of [closedUrl, silent.url, refusing.url]) {
      const { thread, elapsed } = await timed({ OTEL_EXPORTER_OTLP_ENDPOINT: url });
      expect((await temp.showThread(thread)).status).toBe("ended");
      // Generous slack for a loaded machine: this checks the bound, it is no benchmark.
      expect(elapsed).toBeLessThan(baseline.elapsed + EXIT_DEADLINE_MS + 3000);
    }
    expect(silent.requests.length).toBeGreaterThan(0);
  });

  it("exits 1 with trace-export-failed when the collector refuses or cannot be reached", async () => {
    const { thread } = await threadOf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED], {});
    const refusing = receiver(400);
    const refused = await temp.uwf(["trace", "export", thread, "--endpoint", refusing.url, "--json"]);
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: "trace-export-failed",
      data: { endpoint: `${refusing.url}/v1/traces`, spans: 2 },
    });
    const closed = receiver();
    const closedUrl = closed.url;
    closed.stop();
    const unreachable = await temp.uwf(["trace", "export", thread, "--endpoint", closedUrl]);
    expect(unreachable.exitCode).toBe(1);
    expect(unreachable.stderr).toContain(`cannot export 2 spans to ${closedUrl}/v1/traces`);
    const nowhere = await temp.uwf(["trace", "export", thread], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: "" } });
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toContain("--endpoint");
  });
});
