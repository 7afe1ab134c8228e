import { describe, expect, it } from "bun:test";
import { checkMessagesRequest } from "../test/index.ts";
import { toWireSchema } from "./to-wire-schema.ts";

/** Whether the real API (as the strict fake enforces it) takes this schema as a tool's input_schema. */
function apiProblem(schema: Record<string, unknown>): string | null {
  return checkMessagesRequest(
    {
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "x" }],
      tools: [{ name: "report_fields", input_schema: schema }],
    },
    { endpoint: "messages", contextWindow: 200_000 },
  );
}

describe("toWireSchema", () => {
  it("renames $status to status, in properties and required, and maps a tool input back", () => {
    const schema = {
      type: "object",
      properties: { $status: { enum: ["approved", "rejected"] }, comments: { type: "string" } },
      required: ["$status", "comments"],
    };
    expect(apiProblem(schema)).not.toBeNull();
    const wire = toWireSchema(schema);
    expect(wire.schema).toEqual({
      type: "object",
      properties: { status: { enum: ["approved", "rejected"] }, comments: { type: "string" } },
      required: ["status", "comments"],
    });
    expect(apiProblem(wire.schema)).toBeNull();
    expect(wire.restore({ status: "approved", comments: "ok" })).toEqual({ $status: "approved", comments: "ok" });
  });

  it("keeps names unique, cuts long ones and replaces characters the API refuses", () => {
    const long = `x${"y".repeat(70)}`;
    const schema = {
      type: "object",
      properties: { $status: {}, status: {}, "due date": {}, [long]: {}, "€": {} },
    };
    const wire = toWireSchema(schema);
    const names = Object.keys((wire.schema as { properties: object }).properties);
    expect(names).toEqual(["status_2", "status", "due_date", long.slice(0, 64), "_"]);
    expect(apiProblem(wire.schema)).toBeNull();
    const input = Object.fromEntries(names.map((name, index) => [name, index]));
    expect(wire.restore(input)).toEqual({ $status: 0, status: 1, "due date": 2, [long]: 3, "€": 4 });
  });

  it("names a level's keys alike in its oneOf branches, and maps nested objects and arrays back", () => {
    const schema = {
      type: "object",
      properties: { $status: { type: "string" } },
      oneOf: [
        { properties: { $status: { const: "done" }, "the result": { type: "string" } }, required: ["$status"] },
        {
          properties: {
            $status: { const: "blocked" },
            items: { type: "array", items: { type: "object", properties: { $why: { type: "string" } } } },
          },
        },
      ],
    };
    const wire = toWireSchema(schema);
    expect(apiProblem(wire.schema)).toBeNull();
    const branches = (wire.schema as { oneOf: Array<{ properties: object; required?: string[] }> }).oneOf;
    expect(Object.keys(branches[0]?.properties ?? {})).toEqual(["status", "the_result"]);
    expect(branches[0]?.required).toEqual(["status"]);
    expect(
      wire.restore({ status: "blocked", items: [{ why: "no access" }], the_result: "-", extra: { why: "data" } }),
    ).toEqual({ $status: "blocked", items: [{ $why: "no access" }], "the result": "-", extra: { why: "data" } });
  });

  it("leaves a schema whose keys all fit as it is", () => {
    const schema = { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] };
    expect(toWireSchema(schema).schema).toEqual(schema);
  });
});
