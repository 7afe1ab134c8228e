import { describe, expect, it } from "bun:test";
import { allBranchProperties, branchAnswers, listStatusBranches } from "./status-branches.ts";

const rejected = {
  properties: { $status: { const: "rejected" }, why: { type: "string" } },
  required: ["$status", "why"],
};
const approved = { properties: { $status: { const: "approved" } }, required: ["$status"] };

describe("listStatusBranches", () => {
  it("gives a schema without branches one branch, pinned by its own $status enum", () => {
    const branches = listStatusBranches({
      type: "object",
      properties: { $status: { enum: ["a", "b"] }, note: { type: "string" } },
      required: ["note"],
    });
    expect(branches).toHaveLength(1);
    expect(branches[0]?.statuses).toEqual(["a", "b"]);
    expect(branches[0]?.required).toEqual(["note"]);
    expect(branches[0]?.path).toEqual([]);
  });

  it("joins each oneOf branch with the schema's own properties and required fields", () => {
    const branches = listStatusBranches({
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
      oneOf: [rejected, approved],
    });
    expect(branches.map((branch) => branch.statuses)).toEqual([["rejected"], ["approved"]]);
    expect(Object.keys(branches[0]?.properties ?? {})).toEqual(["note", "$status", "why"]);
    expect(branches[0]?.required).toEqual(["note", "$status", "why"]);
    expect(branches[1]?.path).toEqual(["oneOf", 1]);
  });

  it("reads anyOf branches and an enum of statuses", () => {
    const branches = listStatusBranches({
      anyOf: [{ properties: { $status: { enum: ["x", "y"] }, a: { type: "string" } } }, approved],
    });
    expect(branches.map((branch) => branch.statuses)).toEqual([["x", "y"], ["approved"]]);
    expect(branchAnswers(branches[0] as never, "y")).toBe(true);
  });

  it("drops a branch whose status the schema's own enum excludes", () => {
    const branches = listStatusBranches({
      properties: { $status: { type: "string", enum: ["approved", "$SUSPEND"] } },
      oneOf: [rejected, approved],
    });
    expect(branches.map((branch) => branch.statuses)).toEqual([["approved"]]);
  });

  it("splits on if/then/else that tests $status, at the top and inside allOf", () => {
    const branches = listStatusBranches({
      properties: { $status: { type: "string" }, note: { type: "string" } },
      allOf: [
        {
          if: { properties: { $status: { const: "fail" } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword
          then: { properties: { exitCode: { type: "integer" } }, required: ["exitCode"] },
        },
        { required: ["note"] },
      ],
    });
    expect(branches).toHaveLength(2);
    expect(branches[0]?.statuses).toEqual(["fail"]);
    expect(branches[0]?.required).toEqual(["exitCode", "note"]);
    expect(branches[0]?.path).toEqual(["allOf", 0, "then"]);
    expect(branches[1]?.statuses).toBeNull();
    expect(branches[1]?.excluded).toEqual(["fail"]);
    expect(branchAnswers(branches[1] as never, "fail")).toBe(false);
    expect(branchAnswers(branches[1] as never, "pass")).toBe(true);
    expect(Object.keys(allBranchProperties(branches))).toEqual(["$status", "note", "exitCode"]);
  });

  it("narrows pinned statuses with if/then/else", () => {
    const branches = listStatusBranches({
      properties: { $status: { enum: ["pass", "fail", "skip"] } },
      if: { properties: { $status: { const: "fail" } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword
      then: { properties: { log: { type: "string" } } },
      else: { properties: { note: { type: "string" } } },
    });
    expect(branches.map((branch) => [branch.statuses, Object.keys(branch.properties)])).toEqual([
      [["fail"], ["$status", "log"]],
      [
        ["pass", "skip"],
        ["$status", "note"],
      ],
    ]);
  });
});
