import { describe, expect, it } from "bun:test";
import type { Config } from "@uwf/protocol";
import { buildClaudeCodeArgs, DEFAULT_CLAUDE_CODE_PERMISSION_ARGS } from "./build-claude-code-args.ts";
import { countClaudeCodeUsage, findModelPrices } from "./count-claude-code-usage.ts";
import { describeClaudeCodeError } from "./describe-claude-code-error.ts";
import { describePermissionDenials } from "./describe-permission-denials.ts";
import {
  type ClaudeCodeResult,
  createClaudeCodeStreamReader,
  readClaudeCodeOutput,
} from "./read-claude-code-stream.ts";

const STREAM = ["-p", "--output-format", "stream-json", "--verbose"];

describe("buildClaudeCodeArgs", () => {
  it("runs headless, streaming JSON, with the default permission flags and the session id chosen up front", () => {
    expect(buildClaudeCodeArgs({ preset: "claude-code" }, { sessionId: "S0" })).toEqual([
      ...STREAM,
      ...DEFAULT_CLAUDE_CODE_PERMISSION_ARGS,
      "--session-id",
      "S0",
    ]);
  });

  it("puts the preset's args in place of the permission flags and adds the model", () => {
    const spec = { preset: "claude-code" as const, args: ["--max-turns", "5"], model: "opus" };
    expect(buildClaudeCodeArgs(spec, { sessionId: "S0" })).toEqual([
      ...STREAM,
      "--max-turns",
      "5",
      "--model",
      "opus",
      "--session-id",
      "S0",
    ]);
  });

  it("resumes the previous visit's session as a fork named by the new session id", () => {
    const spec = { preset: "claude-code" as const, args: [] };
    expect(buildClaudeCodeArgs(spec, { sessionId: "S2", resumeSessionId: "S1" })).toEqual([
      ...STREAM,
      "--session-id",
      "S2",
      "--resume",
      "S1",
      "--fork-session",
    ]);
    expect(buildClaudeCodeArgs(spec, { sessionId: "S2", resumeSessionId: null })).toHaveLength(6);
    expect(buildClaudeCodeArgs(spec, { sessionId: "S2", resumeSessionId: "" })).toHaveLength(6);
  });
});

/** A result message as Claude Code 2.1.330 writes it (trimmed of fields uwf does not read). */
function resultMessage(fields: Record<string, unknown> = {}) {
  return {
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: 2,
    result: "---\nsummary: done\n---\n",
    session_id: "5c016602",
    total_cost_usd: 0.0042,
    usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    modelUsage: {
      "claude-opus-5-5": {
        inputTokens: 300,
        outputTokens: 150,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUSD: 0.0042,
        contextWindow: 1000000,
      },
    },
    permission_denials: [],
    api_error_status: null,
    ...fields,
  };
}

const lines = (...messages: unknown[]) => `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`;
const init = { type: "system", subtype: "init", session_id: "5c016602", model: "claude-opus-5-5" };
const toolTurn = (id: string, name: string, parent: string | null = null) => ({
  type: "assistant",
  message: { id, model: "claude-opus-5-5", content: [{ type: "tool_use", id: `t-${id}`, name, input: {} }] },
  parent_tool_use_id: parent,
  session_id: "5c016602",
});

describe("readClaudeCodeOutput", () => {
  it("reads the session, the main model, the reply, usage, running totals, turns and denials", () => {
    const denial = { tool_name: "Bash", tool_use_id: "toolu_2", tool_input: { command: "rm -rf /" } };
    const stream = readClaudeCodeOutput(
      lines(init, toolTurn("m1", "Bash"), resultMessage({ permission_denials: [denial] })),
    );
    expect(stream.sessionId).toBe("5c016602");
    expect(stream.model).toBe("claude-opus-5-5");
    expect(stream.result).toEqual({
      result: "---\nsummary: done\n---\n",
      sessionId: "5c016602",
      isError: false,
      subtype: "success",
      errors: [],
      apiErrorStatus: null,
      turns: 2,
      usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
      modelUsage: {
        "claude-opus-5-5": {
          inputTokens: 300,
          outputTokens: 150,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.0042,
        },
      },
      totalCostUsd: 0.0042,
      permissionDenials: [{ tool: "Bash", toolUseId: "toolu_2", input: { command: "rm -rf /" } }],
    });
  });

  it("sums the usage and turns of several results and keeps the last running totals and reply", () => {
    const stream = readClaudeCodeOutput(
      lines(
        init,
        resultMessage({ result: "first", total_cost_usd: 0.001 }),
        resultMessage({ result: "second", num_turns: 1, usage: { input_tokens: 10, output_tokens: 5 } }),
      ),
    );
    expect(stream.result?.result).toBe("second");
    expect(stream.result?.turns).toBe(3);
    expect(stream.result?.usage).toEqual({
      inputTokens: 110,
      outputTokens: 55,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(stream.result?.totalCostUsd).toBe(0.0042);
  });

  it("reads a single JSON result and a verbose message list too", () => {
    expect(readClaudeCodeOutput(JSON.stringify(resultMessage())).result?.sessionId).toBe("5c016602");
    expect(readClaudeCodeOutput(JSON.stringify([init, resultMessage()])).model).toBe("claude-opus-5-5");
  });

  it("keeps text that is not JSON, and has no result without one", () => {
    const stream = readClaudeCodeOutput('Error: something\n{"type":"system"}\n');
    expect(stream.result).toBeNull();
    expect(stream.otherOutput).toBe("Error: something\n");
  });

  it("tells each assistant message as it comes, counting the main conversation's turns by message id", () => {
    const turns: unknown[] = [];
    const reader = createClaudeCodeStreamReader((turn) => turns.push(turn));
    const text = lines(
      init,
      toolTurn("m1", "Read"),
      toolTurn("m1", "Bash"),
      toolTurn("s1", "Grep", "t-m1"),
      toolTurn("m2", "Edit"),
    );
    // In pieces that cut lines in the middle, as a pipe delivers them.
    for (let index = 0; index < text.length; index += 7) reader.push(text.slice(index, index + 7));
    expect(turns).toEqual([
      { turns: 1, tools: ["Read"], subagent: false },
      { turns: 1, tools: ["Bash"], subagent: false },
      { turns: 1, tools: ["Grep"], subagent: true },
      { turns: 2, tools: ["Edit"], subagent: false },
    ]);
    expect(reader.finish().sessionId).toBe("5c016602");
  });
});

function result(fields: Partial<ClaudeCodeResult> = {}): ClaudeCodeResult {
  return {
    result: "",
    sessionId: "S",
    isError: false,
    subtype: "success",
    errors: [],
    apiErrorStatus: null,
    turns: 1,
    usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
    modelUsage: null,
    totalCostUsd: null,
    permissionDenials: [],
    ...fields,
  };
}

const opus = (inputTokens: number, outputTokens: number, costUsd: number, cacheReadTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens: 0,
  costUsd,
});

describe("countClaudeCodeUsage", () => {
  it("prices a new session's totals, every model, at uwf's prices", () => {
    // claude-opus-5-5: $4 in, $20 out per million; claude-haiku-5-5: $0.1 in, $0.5 out.
    const counted = countClaudeCodeUsage({
      result: result({
        modelUsage: { "claude-opus-5-5": opus(200, 100, 0.0028), "claude-haiku-5-5": opus(100, 50, 0) },
      }),
      model: "claude-opus-5-5",
      resumed: false,
      base: null,
    });
    expect(counted.modelUsage).toEqual({
      "claude-opus-5-5": opus(200, 100, 0.0028),
      "claude-haiku-5-5": opus(100, 50, 0.000035),
    });
    expect(counted.usage).toEqual(opus(300, 150, 0.002835));
    expect(counted.sessionUsage).toEqual({
      "claude-opus-5-5": opus(200, 100, 0.0028),
      "claude-haiku-5-5": opus(100, 50, 0),
    });
  });

  it("counts a resumed run as the totals minus the resumed session's", () => {
    // Three runs of 100 in / 50 out each: Claude Code reports 0.0014, 0.0028, 0.0042 as total_cost_usd.
    const counted = countClaudeCodeUsage({
      result: result({ modelUsage: { "claude-opus-5-5": opus(300, 150, 0.0042) }, totalCostUsd: 0.0042 }),
      model: "claude-opus-5-5",
      resumed: true,
      base: { "claude-opus-5-5": opus(200, 100, 0.0028) },
    });
    expect(counted.usage).toEqual(opus(100, 50, 0.0014));
    expect(counted.sessionUsage).toEqual({ "claude-opus-5-5": opus(300, 150, 0.0042) });
  });

  it("takes the totals as they are when they were not carried over from the resumed session", () => {
    const counted = countClaudeCodeUsage({
      result: result({ modelUsage: { "claude-opus-5-5": opus(100, 50, 0.0014) } }),
      model: "claude-opus-5-5",
      resumed: true,
      base: { "claude-opus-5-5": opus(60, 20, 0.00064) },
    });
    expect(counted.usage).toEqual(opus(100, 50, 0.0014));
  });

  it("counts the run's own usage under the main model when the resumed session's totals are unknown", () => {
    const counted = countClaudeCodeUsage({
      result: result({ modelUsage: { "claude-opus-5-5": opus(900, 450, 0.0126) } }),
      model: "claude-opus-5-5",
      resumed: true,
      base: null,
    });
    expect(counted.usage).toEqual(opus(100, 50, 0.0014));
  });

  it("uses config.yaml's prices, and Claude Code's own cost for a model no table knows", () => {
    const config = {
      models: { cheap: { provider: "anthropic", model: "claude-opus-5-5", prices: { input: 1, output: 1 } } },
    };
    const counted = countClaudeCodeUsage({
      result: result({ modelUsage: { "claude-opus-5-5": opus(300, 150, 0.0042), "mystery-model": opus(10, 10, 0.5) } }),
      model: "claude-opus-5-5",
      resumed: true,
      base: { "claude-opus-5-5": opus(200, 100, 0.0028), "mystery-model": opus(5, 5, 0.2) },
      config: config as unknown as Config,
    });
    expect(counted.modelUsage).toEqual({
      "claude-opus-5-5": opus(100, 50, 0.00015),
      "mystery-model": opus(5, 5, 0.3),
    });
  });

  it("prices a context variant as its model", () => {
    expect(findModelPrices("claude-opus-5-5[1m]", undefined)).toEqual(findModelPrices("claude-opus-5-5", undefined));
  });
});

describe("describeClaudeCodeError", () => {
  it("says what stopped the run, never 'failed (success)'", () => {
    expect(
      describeClaudeCodeError(
        result({ isError: true, result: "Invalid API key · Fix external API key", apiErrorStatus: 401 }),
        1,
      ),
    ).toBe("Claude Code reported an error (API status 401): Invalid API key · Fix external API key");
    expect(describeClaudeCodeError(result({ isError: true, subtype: "error_max_turns", turns: 5 }), 1)).toBe(
      "Claude Code stopped at its turn limit after 5 turns (error_max_turns)",
    );
    expect(
      describeClaudeCodeError(
        result({ isError: true, subtype: "error_during_execution", errors: ["No conversation found"] }),
        1,
      ),
    ).toBe("Claude Code failed during execution: No conversation found");
    expect(describeClaudeCodeError(result({ result: "partial" }), 2)).toBe("Claude Code exited with code 2: partial");
    expect(describeClaudeCodeError(result({ isError: true, subtype: "error_new_kind" }), 1)).toBe(
      "Claude Code failed (error_new_kind): no message",
    );
    expect(describeClaudeCodeError(result(), 0)).toBeNull();
  });
});

describe("describePermissionDenials", () => {
  it("names each refused call by its command or file and says how to allow them", () => {
    const message = describePermissionDenials([
      { tool: "Bash", toolUseId: "1", input: { command: "rm -rf build" } },
      { tool: "Write", toolUseId: "2", input: { file_path: "/etc/hosts", content: "x" } },
    ]);
    expect(message).toBe(
      "Claude Code was refused 2 tool calls for lack of permission: Bash(rm -rf build), Write(/etc/hosts); " +
        "if the role needs them, allow them in the preset's args (--allowedTools, --permission-mode)",
    );
  });
});
