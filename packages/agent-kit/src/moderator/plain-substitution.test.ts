import { describe, expect, it } from "bun:test";
import { edgeTemplateEngine } from "./edge-template.ts";
import { isPlainSubstitution, renderPlainSubstitution } from "./plain-substitution.ts";

const context = { summary: "Added a flag", start: { prompt: "Fix it" }, count: 3, files: ["a", "b"], _body: "Body" };

describe("renderPlainSubstitution", () => {
  it("renders variable outputs exactly as Liquid does", async () => {
    for (const source of ["Review: {{ summary }}", "{{start.prompt}} / {{ _body }}\n{{ summary }}!", "No variables."]) {
      expect(renderPlainSubstitution(source, context)).toBe(await edgeTemplateEngine().parseAndRender(source, context));
    }
  });

  it("leaves tags, filters, whitespace control and non-string values to Liquid", () => {
    expect(isPlainSubstitution("{% if summary %}x{% endif %}")).toBe(false);
    expect(isPlainSubstitution("{{ files | join: ', ' }}")).toBe(false);
    expect(isPlainSubstitution("{{- summary }}")).toBe(false);
    expect(isPlainSubstitution("{{ ['$status'] }}")).toBe(false);
    expect(renderPlainSubstitution("{{ count }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ files }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ missing }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ summary.length }}", context)).toBeUndefined();
  });
});
