import { describe, expect, it } from "bun:test";
import { configSchema } from "@uwf/protocol";
import { resolveModelSettings } from "../tool-loop/resolve-model-settings.ts";
import { FALLBACK_CONTEXT_WINDOW, findDefaultContextWindow } from "./default-context-windows.ts";

describe("findDefaultContextWindow", () => {
  it("knows current Claude models, dated ids too, and assumes 200,000 tokens for others", () => {
    expect(findDefaultContextWindow("claude-sonnet-5-5")).toBe(1_000_000);
    expect(findDefaultContextWindow("claude-haiku-4-5-20251001")).toBe(200_000);
    expect(findDefaultContextWindow("claude-opus-4-5-20251101")).toBe(200_000);
    expect(findDefaultContextWindow("gateway-model")).toBe(FALLBACK_CONTEXT_WINDOW);
  });

  it("is overridden by contextWindow on the model entry", () => {
    const config = configSchema.parse({
      models: { small: { provider: "anthropic", model: "claude-sonnet-5-5", contextWindow: 50_000 } },
    });
    expect(resolveModelSettings({ config, model: "small" }).contextWindow).toBe(50_000);
    expect(resolveModelSettings({ config, model: "claude-sonnet-5-5" }).contextWindow).toBe(1_000_000);
  });
});
