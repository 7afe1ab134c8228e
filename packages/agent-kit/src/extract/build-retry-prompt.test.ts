import { describe, expect, it } from "bun:test";
import { buildRetryPrompt } from "./build-retry-prompt.ts";

const schema = { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] };

describe("buildRetryPrompt", () => {
  it("quotes the exact problem and repeats the expected format", () => {
    const prompt = buildRetryPrompt('field "approved": expected boolean, got string "yes"', schema);
    expect(prompt).toStartWith("# Your previous reply could not be used\n\n");
    expect(prompt).toContain('Problem: field "approved": expected boolean, got string "yes"');
    expect(prompt).toContain("## Output format");
    expect(prompt).toContain("- `approved` (boolean, **required**)");
    expect(prompt).toContain("---\napproved: true\n---");
  });

  it("quotes the start of the previous reply when given", () => {
    const prompt = buildRetryPrompt("missing", schema, {
      previousReply: `---\napproved: yes\n---\n${"x".repeat(5000)}`,
    });
    expect(prompt).toContain("Your previous reply began:\n\n```text\n---\napproved: yes\n---\n");
    expect(prompt).not.toContain("x".repeat(2100));
  });

  it("is deterministic", () => {
    expect(buildRetryPrompt("p", schema)).toBe(buildRetryPrompt("p", schema));
  });
});
