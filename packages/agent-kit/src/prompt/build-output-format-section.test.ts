import { describe, expect, it } from "bun:test";
import { buildReplySchema } from "@uwf/workflow";
import { extractFrontmatter } from "../extract/extract-frontmatter.ts";
import { buildOutputFormatSection } from "./build-output-format-section.ts";

const reviewerSchema = {
  type: "object",
  properties: {
    approved: { type: "boolean", description: "Whether the change\n  can ship." },
    severity: { type: "string", enum: ["low", "high"] },
    score: { type: "integer", minimum: 1, maximum: 5 },
  },
  required: ["approved"],
};

describe("buildOutputFormatSection", () => {
  it("lists every field with its type, whether it is required, its values and description, then an example", () => {
    expect(buildOutputFormatSection(reviewerSchema)).toBe(
      [
        "# Output format",
        "",
        "Start your reply with YAML frontmatter: a line `---`, the fields below as YAML, and a closing `---` line. After it, write your answer as markdown. Do not wrap the reply in a code fence.",
        "",
        "## Fields",
        "",
        "- `approved` (boolean, **required**) — Whether the change can ship.",
        '- `severity` (string, optional, one of "low", "high")',
        "- `score` (integer, optional, at least 1, at most 5)",
        "",
        "## Status",
        "",
        "`$status` (string, optional) is a short word saying how things stand; the workflow may route on it. To pause the thread and ask a human instead, reply `$status: $SUSPEND` with a `reason:` saying why you stop and what you need; the required fields may then be left out.",
        "",
        "## Example",
        "",
        "```markdown",
        "---",
        "approved: true",
        "severity: <low | high>  # optional",
        "score: 1  # optional",
        "---",
        "",
        "<your answer in markdown>",
        "```",
      ].join("\n"),
    );
  });

  it("gives an example that passes validation once each choice placeholder is replaced by one of its choices", () => {
    const section = buildOutputFormatSection(reviewerSchema);
    const example = section.slice(section.indexOf("```markdown\n") + 12, section.lastIndexOf("\n```"));
    expect(() => extractFrontmatter(pickFirstChoices(example), reviewerSchema)).not.toThrow();
  });

  it("names a plain enum's choices in the example instead of picking the first", () => {
    const section = buildOutputFormatSection({
      type: "object",
      properties: { verdict: { type: "string", enum: ["accept", "reject"] }, only: { enum: ["one"] } },
      required: ["verdict", "only"],
    });
    expect(section).toContain("---\nverdict: <accept | reject>\nonly: one\n---");
  });

  it("lists nested fields of objects and of list items", () => {
    const section = buildOutputFormatSection({
      type: "object",
      properties: {
        meta: { type: "object", properties: { author: { type: "string" } }, required: ["author"] },
        files: { type: "array", items: { type: "object", properties: { path: { type: "string" } } } },
        tags: { type: ["array", "null"], items: { type: "string" } },
      },
    });
    expect(section).toContain("- `meta` (object, optional)\n  - `meta.author` (string, **required**)");
    expect(section).toContain("- `files` (list of objects, optional)\n  - `files[].path` (string, optional)");
    expect(section).toContain("- `tags` (list of string or null, optional)");
    expect(section).toContain("meta:  # optional\n  author: <author>\nfiles:  # optional\n  - path: <path>");
  });

  it("says when a role reports no fields", () => {
    const section = buildOutputFormatSection(undefined);
    expect(section).toContain("This role reports no fields");
    expect(section).toContain("```markdown\n---\n---\n\n<your answer in markdown>\n```");
  });

  it("requires $status with its values when the workflow routes on it", () => {
    const schema = buildReplySchema(
      {
        type: "workflow/1",
        name: "w",
        roles: { reviewer: { goal: "Review.", frontmatter: reviewerSchema } },
        conditions: {},
        graph: {
          $START: [{ role: "reviewer", condition: null, status: null, prompt: "Go." }],
          reviewer: [
            { role: "$END", condition: null, status: "approved", prompt: "Done." },
            { role: "reviewer", condition: null, status: "rejected", prompt: "Again." },
          ],
        },
      },
      "reviewer",
    );
    const section = buildOutputFormatSection(schema);
    expect(section).toContain(
      "`$status` (string, **required**, one of `approved`, `rejected`) decides where the workflow goes next.",
    );
    expect(section).toContain("```markdown\n---\n$status: <approved | rejected>\napproved: true\n");
    expect(section).not.toContain("- `$status`");
    expect(section).not.toContain("- `reason`");
  });

  it("lists a $status or reason the role declares as ordinary fields", () => {
    const section = buildOutputFormatSection({ properties: { reason: { type: "string" } }, required: ["reason"] });
    expect(section).toContain("- `reason` (string, **required**)");
  });

  it("nests its headings under a given level", () => {
    expect(buildOutputFormatSection(reviewerSchema, { headingLevel: 2 })).toStartWith("## Output format\n\n");
  });
});

/** An example reply with each `<a | b>` choice placeholder replaced by its first choice. */
function pickFirstChoices(example: string): string {
  return example.replace(/<([^<>|]+?) \| [^<>]*>/g, "$1");
}

describe("buildOutputFormatSection with per-status branches", () => {
  const schema = {
    type: "object",
    properties: { note: { type: "string" } },
    oneOf: [
      { properties: { $status: { const: "rejected" }, why: { type: "string" } }, required: ["$status", "why"] },
      { properties: { $status: { const: "approved" } }, required: ["$status"] },
    ],
  };
  const section = buildOutputFormatSection(schema);

  it("lists each status with its own fields, required and optional marks", () => {
    expect(section).toContain("`$status` (string, **required**, one of `rejected`, `approved`)");
    expect(section).toContain(
      "## With `$status`: `rejected`\n\n- `note` (string, optional)\n- `why` (string, **required**)",
    );
    expect(section).toContain("## With `$status`: `approved`\n\n- `note` (string, optional)");
    expect(section).not.toContain("This role reports no fields");
  });

  it("gives an example reply per status that the reply check accepts", () => {
    const examples = [...section.matchAll(/```markdown\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? "");
    expect(examples).toHaveLength(2);
    expect(examples[0]).toContain("$status: rejected\nnote: <note>  # optional\nwhy: <why>");
    for (const example of examples) expect(() => extractFrontmatter(example, schema)).not.toThrow();
  });

  it("gives one example per status, also for a branch that answers two", () => {
    const twoInOne = buildOutputFormatSection({
      type: "object",
      oneOf: [
        { properties: { $status: { enum: ["approved", "merged"] } }, required: ["$status"] },
        { properties: { $status: { const: "rejected" }, why: { type: "string" } }, required: ["$status", "why"] },
      ],
    });
    const examples = [...twoInOne.matchAll(/```markdown\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? "");
    expect(examples.map((example) => /\$status: (\S+)/.exec(example)?.[1])).toEqual(["approved", "merged", "rejected"]);
  });
});
