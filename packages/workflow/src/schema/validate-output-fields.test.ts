import { describe, expect, it } from "bun:test";
import { validateOutputFields } from "./validate-output-fields.ts";

const schema = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    files: { type: "array", items: { type: "string" } },
    meta: { type: "object", properties: { count: { type: "integer", minimum: 1 } }, additionalProperties: false },
  },
  required: ["approved", "summary"],
};

describe("validateOutputFields", () => {
  it("accepts fields that match the schema", () => {
    expect(validateOutputFields({ approved: true, summary: "ok", files: ["a"] }, schema)).toEqual({ success: true });
  });

  it("names each failing field with what was expected and what came, nested paths included", () => {
    const result = validateOutputFields({ approved: "yes", files: ["a", 2], meta: { count: 0, extra: 1 } }, schema);
    expect(result).toEqual({
      success: false,
      problem: [
        'missing required field "summary"',
        'field "approved": expected boolean, got string "yes"',
        'field "files[1]": expected string, got number 2',
        'field "meta.count": 0 is less than 1 (minimum), got number 0',
        'field "meta": unexpected field "extra"',
      ].join("; "),
    });
  });

  it("reads schemas as draft 7, like the workflow loader", () => {
    const tuple = {
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
    };
    expect(validateOutputFields({ pair: ["a", 1] }, tuple)).toEqual({ success: true });
    expect(validateOutputFields({ pair: [1, 1] }, tuple)).toEqual({
      success: false,
      problem: 'field "pair[0]": expected string, got number 1',
    });
  });
});
