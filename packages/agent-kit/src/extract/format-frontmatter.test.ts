import { describe, expect, it } from "bun:test";
import { formatFrontmatter, formatYaml } from "@uwf/workflow";
import { extractFrontmatter } from "./extract-frontmatter.ts";

describe("formatFrontmatter", () => {
  it("writes the fields between dashes, then a blank line and the body", () => {
    expect(formatFrontmatter({ summary: "done", files: ["a.ts"] }, "# Body\n")).toBe(
      "---\nsummary: done\nfiles:\n  - a.ts\n---\n\n# Body\n",
    );
  });

  it("writes empty frontmatter and no body", () => {
    expect(formatFrontmatter({}, "")).toBe("---\n---\n");
  });

  it("is read back by extractFrontmatter", () => {
    const fields = { $status: "$SUSPEND", reason: "needs: a colon\nand a newline", count: 3, yes: "yes" };
    const reply = formatFrontmatter(fields, "body");
    const schema = { properties: { count: { type: "integer" }, yes: { type: "string" } } };
    expect(extractFrontmatter(reply, schema)).toEqual({ fields, body: "body" });
  });
});

describe("formatYaml", () => {
  it("does not fold long lines", () => {
    const long = "word ".repeat(40).trim();
    expect(formatYaml({ long })).toBe(`long: ${long}\n`);
  });
});
