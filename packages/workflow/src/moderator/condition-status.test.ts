import { describe, expect, it } from "bun:test";
import { conditionStatus } from "./condition-status.ts";

describe("conditionStatus", () => {
  it("reads the status a condition tests when that is all it tests", () => {
    expect(conditionStatus('steps[-1].output.`$status` = "close"')).toBe("close");
    expect(conditionStatus("'done' = steps[-1].output.`$status`")).toBe("done");
    expect(conditionStatus(' ( steps[-1].output.`$status`="x" ) ')).toBe("x");
  });

  it("is null for conditions that test more, or test the unquoted variable", () => {
    expect(conditionStatus('steps[-1].output.`$status` = "a" and $count("w") > 1')).toBeNull();
    expect(conditionStatus('steps[-1].output.$status = "a"')).toBeNull();
    expect(conditionStatus('steps[-2].output.`$status` = "a"')).toBeNull();
    expect(conditionStatus('steps[-1].output.`$status` != "a"')).toBeNull();
  });
});
