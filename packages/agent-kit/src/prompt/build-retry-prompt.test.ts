import { describe, expect, it } from "bun:test";
import { buildRetryPrompt, QUOTED_REPLY_CHARACTERS } from "./build-retry-prompt.ts";

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

  it("quotes the rejected reply's frontmatter beside the problem, not its body", () => {
    const prompt = buildRetryPrompt('field "approved": expected boolean, got string "yes"', schema, {
      previousReply: `---\napproved: yes\n---\n${"x".repeat(5000)}`,
    });
    expect(prompt).toContain(
      'Problem: field "approved": expected boolean, got string "yes"\n\nThe frontmatter of your reply was:\n\n```yaml\n---\napproved: yes\n---\n```\n\nReply again',
    );
    expect(prompt).not.toContain("xxx");
  });

  it("cuts a long frontmatter, and quotes the start of a reply without one", () => {
    const long = buildRetryPrompt("p", schema, { previousReply: `---\nnotes: ${"y".repeat(3000)}\n---\n` });
    expect(long).toContain(
      `The frontmatter of your reply was (its first ${QUOTED_REPLY_CHARACTERS} of 3015 characters):`,
    );
    expect(long).not.toContain("y".repeat(2100));
    const none = buildRetryPrompt("p", schema, { previousReply: "I approve." });
    expect(none).toContain("Your reply began (no frontmatter was found):\n\n```text\nI approve.\n```");
  });

  it("is deterministic", () => {
    expect(buildRetryPrompt("p", schema)).toBe(buildRetryPrompt("p", schema));
  });
});
