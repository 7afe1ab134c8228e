import { describe, expect, it } from "bun:test";
import jsonata from "jsonata";
import { findUnquotedStatus } from "./find-unquoted-status.ts";

const find = (source: string) => findUnquotedStatus(source, jsonata(source).ast());

describe("findUnquotedStatus", () => {
  it("quotes $status read as a field name of a path", () => {
    expect(find('steps[-1].output.$status = "ok"')).toEqual({ count: 1, fix: 'steps[-1].output.`$status` = "ok"' });
    expect(find('$last("tester").$status != "fail"')).toEqual({ count: 1, fix: '$last("tester").`$status` != "fail"' });
    expect(find("steps[-1].output.$status in ['a', 'b'] or steps[-2].output.$status = 'c'")).toEqual({
      count: 2,
      fix: "steps[-1].output.`$status` in ['a', 'b'] or steps[-2].output.`$status` = 'c'",
    });
  });

  it("points a $status that stands alone at the previous reply's field", () => {
    expect(find('$status = "ok"')).toEqual({ count: 1, fix: 'steps[-1].output.`$status` = "ok"' });
  });

  it("leaves quoted fields and the expression's own $status variable alone", () => {
    for (const source of [
      'steps[-1].output.`$status` = "ok"',
      '($status := steps[-1].output.`$status`; $status = "ok")',
      'function($status) { $status = "ok" }(steps[-1].output.`$status`)',
      'steps@$status.role = "x"',
      'steps#$status[$status = 0].role = "x"',
      '"$status" = steps[-1].output.kind',
      '$count("$status") > 0',
      "steps[-1].output.status = 'ok'",
    ]) {
      expect({ source, found: find(source) }).toEqual({ source, found: null });
    }
  });

  it("makes a condition that never held hold once fixed", async () => {
    const source = 'steps[-1].output.$status = "ok"';
    const input = { steps: [{ role: "tester", output: { $status: "ok" } }] };
    expect(await jsonata(source).evaluate(input)).toBe(false);
    const fixed = find(source)?.fix ?? "";
    expect(await jsonata(fixed).evaluate(input)).toBe(true);
  });
});
