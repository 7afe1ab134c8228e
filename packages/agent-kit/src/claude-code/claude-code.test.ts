import { describe, expect, it } from "bun:test";
import { buildClaudeCodeArgs, DEFAULT_CLAUDE_CODE_PERMISSION_ARGS } from "./build-claude-code-args.ts";
import { parseClaudeCodeOutput } from "./parse-claude-code-output.ts";

describe("buildClaudeCodeArgs", () => {
  it("runs headless with JSON output and the default permission flags", () => {
    expect(buildClaudeCodeArgs({ preset: "claude-code" }, undefined)).toEqual([
      "-p",
      "--output-format",
      "json",
      ...DEFAULT_CLAUDE_CODE_PERMISSION_ARGS,
    ]);
  });

  it("puts the preset's args in place of the permission flags and adds the model", () => {
    expect(buildClaudeCodeArgs({ preset: "claude-code", args: ["--verbose"], model: "opus" }, undefined)).toEqual([
      "-p",
      "--output-format",
      "json",
      "--verbose",
      "--model",
      "opus",
    ]);
  });

  it("resumes the previous visit's session as a fork, so the recorded session is never appended to", () => {
    const spec = { preset: "claude-code" as const, args: [] };
    expect(buildClaudeCodeArgs(spec, { sessionId: "S1", transcript: null, shared: false })).toEqual([
      "-p",
      "--output-format",
      "json",
      "--resume",
      "S1",
      "--fork-session",
    ]);
    expect(buildClaudeCodeArgs(spec, { sessionId: "S1", transcript: null, shared: true }).slice(3)).toEqual([
      "--resume",
      "S1",
      "--fork-session",
    ]);
    expect(buildClaudeCodeArgs(spec, { sessionId: null, transcript: null, shared: true })).toHaveLength(3);
  });
});

describe("parseClaudeCodeOutput", () => {
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: 2,
    result: "---\nsummary: done\n---\n",
    session_id: "5c016602",
    total_cost_usd: 0.0123456789,
    usage: { input_tokens: 20, output_tokens: 10, cache_read_input_tokens: 5, cache_creation_input_tokens: 1 },
  };

  it("reads the result text, session, usage and cost", () => {
    expect(parseClaudeCodeOutput(JSON.stringify(result))).toEqual({
      result: "---\nsummary: done\n---\n",
      sessionId: "5c016602",
      usage: { inputTokens: 20, outputTokens: 10, cacheReadTokens: 5, cacheWriteTokens: 1, costUsd: 0.012346 },
      isError: false,
      subtype: "success",
      numTurns: 2,
    });
  });

  it("finds the result in a verbose message list", () => {
    const output = JSON.stringify([{ type: "system", subtype: "init" }, { type: "assistant" }, result]);
    expect(parseClaudeCodeOutput(output)?.sessionId).toBe("5c016602");
  });

  it("gives null for output without a result", () => {
    expect(parseClaudeCodeOutput("Error: something")).toBeNull();
    expect(parseClaudeCodeOutput('{"type":"system"}')).toBeNull();
  });
});
