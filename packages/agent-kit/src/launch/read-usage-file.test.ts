import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUsageFile } from "./read-usage-file.ts";

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "uwf-usage-"));
  file = join(directory, "usage.json");
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("readUsageFile", () => {
  it("is no usage when the agent wrote no file", () => {
    expect(readUsageFile(file)).toEqual({ kind: "absent" });
  });

  it("prices the tokens at the model's prices when the file gives no cost", () => {
    writeFileSync(file, JSON.stringify({ input_tokens: 1_000_000, output_tokens: 0, model: "claude-haiku-4-5" }));
    const read = readUsageFile(file);
    expect(read.kind).toBe("reported");
    if (read.kind === "reported") expect(read.usage.costUsd).toBeGreaterThan(0);
    writeFileSync(file, JSON.stringify({ input_tokens: 10, output_tokens: 2 }));
    expect(readUsageFile(file)).toEqual({
      kind: "reported",
      usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
      modelUsage: null,
    });
  });

  it("names the problem of a malformed file", () => {
    const cases: Array<[string, string]> = [
      ["", 'not JSON: ""'],
      ["[1]", "expected a JSON object with input_tokens and output_tokens, got [1]"],
      ['{"input_tokens": 1}', '"output_tokens" is missing'],
      ['{"input_tokens": 1, "output_tokens": -2}', '"output_tokens": expected an integer ≥ 0, got -2'],
      ['{"input_tokens": 1, "output_tokens": 2, "cost": 1}', 'unknown field "cost" (expected input_tokens,'],
    ];
    for (const [text, problem] of cases) {
      writeFileSync(file, text);
      const read = readUsageFile(file);
      expect(read.kind).toBe("malformed");
      if (read.kind === "malformed") expect(read.problem).toStartWith(problem);
    }
  });
});
