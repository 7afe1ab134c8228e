import { describe, expect, it } from "bun:test";
import { edgeTemplateEngine } from "./edge-template.ts";
import { isPlainSubstitution, renderPlainSubstitution } from "./plain-substitution.ts";

const context = {
  summary: "Added a flag",
  start: { prompt: "Fix it" },
  count: 3,
  ratio: 0.1 + 0.2,
  huge: 1e21,
  tiny: -1e-7,
  done: false,
  files: ["a", "b"],
  nothing: null,
  _body: "Body",
};

describe("renderPlainSubstitution", () => {
  it("renders variable outputs exactly as Liquid does", async () => {
    const sources = [
      "Review: {{ summary }}",
      "{{start.prompt}} / {{ _body }}\n{{ summary }}!",
      "No variables.",
      "Step {{ count }} of {{ huge }}: {{ ratio }}, {{ tiny }}, done={{ done }}",
    ];
    for (const source of sources) {
      expect(renderPlainSubstitution(source, context)).toBe(await edgeTemplateEngine().parseAndRender(source, context));
    }
  });

  it("leaves tags, filters, whitespace control, null, lists and objects to Liquid", () => {
    expect(isPlainSubstitution("{% if summary %}x{% endif %}")).toBe(false);
    expect(isPlainSubstitution("{{ files | join: ', ' }}")).toBe(false);
    expect(isPlainSubstitution("{{- summary }}")).toBe(false);
    expect(isPlainSubstitution("{{ ['$status'] }}")).toBe(false);
    expect(renderPlainSubstitution("{{ nothing }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ start }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ files }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ missing }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ summary.length }}", context)).toBeUndefined();
  });
});
