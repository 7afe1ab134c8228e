import { describe, expect, it } from "bun:test";
import { splitFrontmatter } from "./split-frontmatter.ts";

describe("splitFrontmatter", () => {
  it("splits a reply into the YAML between the dashes and the body after them", () => {
    expect(splitFrontmatter("---\nsummary: done\n---\n\n# Body\n\ntext\n")).toEqual({
      success: true,
      yaml: "summary: done",
      firstLine: 2,
      body: "# Body\n\ntext",
    });
  });

  it("tolerates a byte-order mark, blank lines and CRLF line endings", () => {
    const result = splitFrontmatter("\uFEFF\r\n\r\n---\r\nsummary: done\r\n---\r\nbody\r\n");
    expect(result).toEqual({ success: true, yaml: "summary: done", firstLine: 4, body: "body" });
  });

  it("accepts '...' as the closing line", () => {
    expect(splitFrontmatter("---\na: 1\n...\nbody")).toMatchObject({ success: true, yaml: "a: 1", body: "body" });
  });

  it("unwraps a code fence around the frontmatter only", () => {
    const result = splitFrontmatter("```yaml\n---\napproved: true\n---\n```\n\nThe body.");
    expect(result).toMatchObject({ success: true, yaml: "approved: true", body: "The body." });
  });

  it("unwraps a code fence around the whole reply", () => {
    const result = splitFrontmatter("```markdown\n---\napproved: true\n---\n\nThe body.\n```\n");
    expect(result).toMatchObject({ success: true, yaml: "approved: true", body: "The body." });
  });

  it("keeps code fences inside a body that a stray fence wraps", () => {
    const result = splitFrontmatter("````\n---\na: 1\n---\n```ts\nx()\n```\n````");
    expect(result).toMatchObject({ success: true, body: "```ts\nx()\n```" });
  });

  it("reads a fenced YAML block without dashes as the frontmatter", () => {
    expect(splitFrontmatter("```yaml\nsummary: done\n```\nbody")).toMatchObject({
      success: true,
      yaml: "summary: done",
      firstLine: 2,
      body: "body",
    });
  });

  it("reads a bare fence holding field lines as the frontmatter", () => {
    expect(splitFrontmatter("```\nsummary: done\n```\nbody")).toMatchObject({ success: true, yaml: "summary: done" });
  });

  it("reports a reply that does not start with the frontmatter, quoting its first line", () => {
    expect(splitFrontmatter("Here is my answer:\n---\na: 1\n---\n")).toEqual({
      success: false,
      problem: `no YAML frontmatter found: the reply must start with a '---' line, but it starts with "Here is my answer:"`,
    });
  });

  it("reports a code block of code as no frontmatter", () => {
    const result = splitFrontmatter("```ts\nconst a = 1;\n```\n");
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problem).toStartWith("no YAML frontmatter found");
  });

  it("reports frontmatter that is never closed, naming its line", () => {
    expect(splitFrontmatter("\n---\na: 1\nbody")).toEqual({
      success: false,
      problem: "the frontmatter opened by '---' on line 2 is never closed: end the fields with a '---' line",
    });
  });

  it("reports an empty reply", () => {
    const result = splitFrontmatter(" \n\n");
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problem).toStartWith("the reply is empty");
  });
});
