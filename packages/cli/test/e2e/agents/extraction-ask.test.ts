import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { fakeTextReply, fakeToolUseReply, startFakeAnthropicServer } from "@uwf/agent-kit/test";
import { shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import { useTempHomeWithFakeApi } from "../../helpers/fake-api-home.ts";
import { FAKE_MODEL_ENV, FAKE_MODEL_KEY, fakeModelConfig } from "../../helpers/fake-model-api.ts";
import { FIXTURES } from "../../helpers/temp-home.ts";

const WORKFLOW = join(FIXTURES, "workflows/model-ask.yaml");

// Strict: a request the real Messages API would refuse gets its 400, and fails the test.
const { temp, server } = useTempHomeWithFakeApi(() => startFakeAnthropicServer({ apiKey: FAKE_MODEL_KEY }));

function writeConfig(): void {
  const models = {
    sonnet: { model: "claude-sonnet-5-5", prices: { input: 3, output: 15 } },
    haiku: { model: "claude-haiku-4-5", prices: { input: 1, output: 5 } },
  };
  temp.writeConfig(fakeModelConfig(server.url, { models, extra: ["extractionModel: haiku", "retries: 0"] }));
}

describe("LLM extraction of a reply that stops to ask a typed question", () => {
  it("tells the extraction model the role's ask: fields, so the question it reports is kept and the thread suspends asking it", async () => {
    writeConfig();
    server.enqueue(
      fakeTextReply("I cannot plan this yet: which region should it go to, eu-west or us-east?"),
      fakeToolUseReply({
        name: "report_fields",
        input: {
          status: "$SUSPEND",
          reason: "The task names no region.",
          question: "Which region?",
          regions: ["eu-west", "us-east"],
        },
      }),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Deploy the service", "--json"], { env: FAKE_MODEL_ENV });
    expect(run.exitCode).toBe(20);
    const result = stepResultSchema.parse(run.json());
    expect(result.status).toBe("suspended");
    expect(result.steps[0]?.output).toEqual({
      $status: "$SUSPEND",
      reason: "The task names no region.",
      question: "Which region?",
      regions: ["eu-west", "us-east"],
    });
    expect(result.suspension).toMatchObject({ ask: { question: "Which region?", regions: ["eu-west", "us-east"] } });

    // The extraction request named the ask's fields, and required only what a suspending reply has too.
    const extraction = server.messageRequests()[1]?.body as {
      system: string;
      tools: Array<{ input_schema: { properties: Record<string, { description?: string }>; required: string[] } }>;
    };
    const schema = extraction.tools[0]?.input_schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(["plan", "status", "reason", "question", "regions"]);
    expect(schema?.properties.question?.description).toContain("$SUSPEND");
    expect(schema?.required).toEqual([]);
    expect(extraction.system).toContain('"question", "regions"');

    const shown = shownThreadSchema.parse((await temp.uwf(["show", result.thread, "--json"])).json());
    expect(shown.status).toBe("suspended");
  }, 60_000);

  it("still extracts a finishing reply's required fields", async () => {
    writeConfig();
    server.enqueue(
      fakeTextReply("The plan: blue-green in eu-west."),
      fakeToolUseReply({ name: "report_fields", input: { plan: "blue-green in eu-west" } }),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Deploy to eu-west", "--json"], { env: FAKE_MODEL_ENV });
    expect(run.exitCode).toBe(0);
    expect(stepResultSchema.parse(run.json()).steps[0]?.output).toEqual({ plan: "blue-green in eu-west" });
  }, 60_000);
});
