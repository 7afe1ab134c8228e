import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { InvalidInputsError } from "../errors/invalid-inputs-error.ts";
import { validateStartInputs } from "./validate-start-inputs.ts";

const base: WorkflowNode = { type: "workflow/1", name: "w", roles: {}, conditions: {}, graph: {} };
const withInputs: WorkflowNode = {
  ...base,
  inputs: {
    type: "object",
    properties: { repo: { type: "string" }, pr: { type: "integer" }, path: { type: "string", default: "." } },
    required: ["repo", "pr"],
  },
};

describe("validateStartInputs", () => {
  it("takes any inputs when the workflow declares none", () => {
    expect(validateStartInputs(base, { anything: [1] })).toEqual({ anything: [1] });
  });

  it("fills in defaults and keeps what was given", () => {
    expect(validateStartInputs(withInputs, { repo: "a/b", pr: 4 })).toEqual({ repo: "a/b", pr: 4, path: "." });
  });

  it("names every input that does not fit", () => {
    let error: unknown;
    try {
      validateStartInputs(withInputs, { pr: "four" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputsError);
    expect((error as InvalidInputsError).code).toBe("invalid-inputs");
    expect((error as Error).message).toBe(
      'start inputs do not fit workflow w: missing required input "repo"; input "pr": expected integer, got string "four"',
    );
  });
});
