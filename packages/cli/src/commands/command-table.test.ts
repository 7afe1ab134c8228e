import { describe, expect, it } from "bun:test";
import { compileExpression, parseAssertionArgument } from "@uwf/eval";
import * as protocol from "@uwf/protocol";
import { Option } from "commander";
import { COMMAND_TABLE } from "./command-table.ts";
import { GLOBAL_OPTIONS } from "./global-options.ts";
import type { CommandEntry } from "./table/define-command.ts";
import { isCommandGroup } from "./table/define-command.ts";
import { HELP_GROUPS } from "./table/help-groups.ts";
import { COMPARE_SORT_COLUMNS } from "./table/thread-commands.ts";

/** Every command in the table, named as typed: `start`, `workflow add`. */
function allCommands(): Array<[string, CommandEntry]> {
  return COMMAND_TABLE.flatMap((entry) =>
    isCommandGroup(entry)
      ? entry.commands.map((command): [string, CommandEntry] => [`${entry.name} ${command.name}`, command])
      : [[entry.name, entry] as [string, CommandEntry]],
  );
}

describe("the command table", () => {
  it("keys each flag by the options key commander fills from it", () => {
    for (const [name, command] of allCommands()) {
      for (const option of command.options) {
        expect(`${name} ${new Option(option.flags).attributeName()}`).toBe(`${name} ${option.key}`);
      }
    }
    for (const option of GLOBAL_OPTIONS) expect(new Option(option.flags).attributeName()).toBe(option.key);
  });

  it("gives every command and group one to three examples that start with uwf", () => {
    const entries = [...allCommands().map(([, command]) => command), ...COMMAND_TABLE];
    for (const entry of entries.filter((candidate) => !("hidden" in candidate && candidate.hidden === true))) {
      expect(entry.examples.length).toBeGreaterThanOrEqual(1);
      expect(entry.examples.length).toBeLessThanOrEqual(3);
      for (const example of entry.examples) expect(example).toContain("uwf ");
    }
  });

  it("gives eval examples whose expressions judge a thread without erring", async () => {
    const step = { number: 1, address: "0000000000000", role: "reviewer", agent: "scripted", status: "approved" };
    const view = {
      thread: "01J9AAAAAAAAAAAAAAAAAAAAAA",
      status: "ended",
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.01 },
      outcome: { role: "reviewer", status: "approved" },
      steps: [{ ...step, output: { $status: "approved" }, durationMs: 5, usage: null }],
      final: { $status: "approved" },
      totals: { steps: 1, tokens: 15, costUsd: 0.01, durationMs: 5 },
    } as unknown as protocol.EvalThreadView;
    const examples = allCommands().flatMap(([, command]) => command.examples);
    const assertions = examples.flatMap((example) => [...example.matchAll(/--assert '([^']*)'/g)].map((m) => m[1]));
    expect(assertions.length).toBeGreaterThan(0);
    for (const text of assertions) {
      const assertion = parseAssertionArgument(text ?? "");
      if (assertion.kind !== "jsonata") continue;
      const result = await compileExpression(assertion.name, assertion.expr).evaluate(view);
      expect(`${text}: ${result.error ?? "ok"}`).toBe(`${text}: ok`);
    }
  });

  it("offers `compare --sort` the columns the protocol sorts by", () => {
    expect([...COMPARE_SORT_COLUMNS]).toEqual([...protocol.COMPARE_SORT_KEYS]);
  });

  it("names only schemas @uwf/protocol exports", () => {
    const exported = new Set(Object.keys(protocol));
    for (const [name, command] of allCommands()) {
      for (const schema of command.json?.match(/\b\w+Schema\b/g) ?? [])
        expect(`${name}: ${exported.has(schema)}`).toBe(`${name}: true`);
    }
  });

  it("lists every visible top-level command under exactly one help heading, and only commands it has", () => {
    const visible = COMMAND_TABLE.filter((entry) => !("hidden" in entry && entry.hidden === true)).map(
      (entry) => entry.name,
    );
    const grouped = HELP_GROUPS.flatMap((group) => group.commands);
    expect([...grouped].sort()).toEqual([...visible].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });
});
