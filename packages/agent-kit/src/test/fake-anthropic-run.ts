import { afterEach, beforeEach, expect } from "bun:test";
import { type AnthropicAgentSpec, type Config, configSchema } from "@uwf/protocol";
import { type RunAnthropicAgentOptions, runAnthropicAgent } from "../anthropic/run-anthropic-agent.ts";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { type AgentRunFixture, createAgentRunFixture } from "./agent-run-fixture.ts";
import { type FakeAnthropicServer, startFakeAnthropicServer } from "./fake-anthropic-server.ts";

/** The variable the runs read the fake's API key from, and the key. */
export const FAKE_KEY_VARIABLE = "UWF_TEST_FAKE_ANTHROPIC_KEY";
export const FAKE_KEY = "test-key-not-secret";

export interface FakeAnthropicRun {
  /** The current test's place to run in and its strict fake of the Messages API: new before each test. */
  fixture: AgentRunFixture;
  server: FakeAnthropicServer;
  /** A config whose default model `sonnet` (claude-sonnet-5-5, with `model` laid over it) is served by the fake; `extra` is laid over the whole. */
  config(model?: Record<string, unknown>, extra?: Record<string, unknown>): Config;
  /**
   * runAnthropicAgent in the fixture against the fake: the built-in `anthropic` agent (`spec` laid over
   * it) as `model`, a 20 s timeout, two retries and the fake's key in its environment; `options` last.
   */
  run(
    options: Pick<RunAnthropicAgentOptions, "prompt" | "config"> & Partial<RunAnthropicAgentOptions>,
    spec?: Partial<AnthropicAgentSpec>,
  ): Promise<AgentLaunchResult>;
}

/**
 * Registers, for each test of the file, a fresh agent-run fixture and a strict fake Anthropic server,
 * and after the test closes both and checks that the fake refused nothing uwf sent.
 */
export function useFakeAnthropicRun(prefix: string): FakeAnthropicRun {
  const fake = {
    config: (model = {}, extra = {}) =>
      configSchema.parse({
        providers: { fake: { baseUrl: fake.server.url, apiKeyEnv: FAKE_KEY_VARIABLE } },
        models: { sonnet: { provider: "fake", model: "claude-sonnet-5-5", ...model } },
        defaultModel: "sonnet",
        ...extra,
      }),
    run: (options, spec = {}) =>
      runAnthropicAgent({
        spec: { builtin: "anthropic", ...spec },
        alias: "model",
        ...fake.fixture.context,
        timeoutMs: 20_000,
        environment: { [FAKE_KEY_VARIABLE]: FAKE_KEY },
        maxRetries: 2,
        ...options,
      }),
  } as FakeAnthropicRun;
  beforeEach(() => {
    fake.fixture = createAgentRunFixture({ prefix });
    fake.server = startFakeAnthropicServer({ apiKey: FAKE_KEY });
  });
  afterEach(async () => {
    const rejected = fake.server.rejectedRequests().map((request) => request.rejection);
    await fake.server.close();
    fake.fixture.remove();
    // The fake is strict: nothing uwf sent would have been refused by the real API.
    expect(rejected).toEqual([]);
  });
  return fake;
}
