import { describe, expect, it } from "bun:test";
import { checkBodyFields } from "./check-body-fields.ts";

describe("checkBodyFields", () => {
  const types = { steps: "positive integer", all: "boolean", answer: "object", agent: "string" } as const;

  it("passes a body whose present fields have their types, and one without them", () => {
    expect(checkBodyFields({ steps: 2, all: false, answer: { ok: true }, agent: "sh" }, types)).toBeNull();
    expect(checkBodyFields({}, types)).toBeNull();
  });

  it("names the first field of the wrong type, with its article", () => {
    expect(checkBodyFields({ steps: 0 }, types)).toBe(`the body's "steps" must be a positive integer`);
    expect(checkBodyFields({ steps: 1.5 }, types)).toBe(`the body's "steps" must be a positive integer`);
    expect(checkBodyFields({ answer: [1] }, types)).toBe(`the body's "answer" must be an object`);
    expect(checkBodyFields({ answer: null }, types)).toBe(`the body's "answer" must be an object`);
    expect(checkBodyFields({ all: "yes" }, types)).toBe(`the body's "all" must be a boolean`);
  });

  it("names a required field that is missing, null or empty before any type", () => {
    for (const workflow of [undefined, null, ""]) {
      expect(checkBodyFields({ workflow, agent: 7 }, { agent: "string" }, ["workflow"])).toBe(
        `the body's "workflow" is required`,
      );
    }
  });
});
