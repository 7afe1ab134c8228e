import { describe, expect, it } from "bun:test";
import { evalReportEntrySchema, threadRecordSchema, workflowEntrySchema } from "@uwf/protocol";
import { createMemoryRefStore } from "../memory/create-memory-ref-store.ts";
import { sampleThreadRecord } from "../testing/sample-nodes.ts";
import {
  isWellFormedEvalReportEntry,
  isWellFormedThreadRecord,
  isWellFormedThreadUpdate,
  isWellFormedWorkflowEntry,
} from "./is-well-formed-record.ts";
import { refRecordSchemas } from "./ref-record-schemas.ts";

const updateSchema = refRecordSchemas.threadUpdate;
const origin = { thread: "01JD0000000000000000000000", step: 3, address: "2W53JPNXF556H", replaced: false };
const failure = { code: "agent-failed", message: "exit 1", attempts: 3, failedAt: "2026-11-21T10:00:00.000Z" };
const record = sampleThreadRecord({ forkedFrom: origin, reason: "why", next: "coder", queued: true, failure });
const branchOrigin = { thread: origin.thread, step: 3, branch: "security", address: "2W53JPNXF556H", role: "reviewer" };
const roleOutcome = { role: "reviewer", status: "approved", edge: null };
const endOutcome = { role: "reviewer", status: null, edge: { index: 1, condition: null, key: "approved" } };
const entry = { name: "solve", address: "2W53JPNXF556H", updatedAt: "2026-11-21T10:00:00.000Z" };
const report = {
  id: "01JD0000000000000000000000",
  address: "2W53JPNXF556H",
  name: "smoke",
  createdAt: "2026-11-21T10:00:00.000Z",
};

/** Values each field can take, good and bad, to try in every field. */
const candidates: unknown[] = [
  "2W53JPNXF556H",
  "2w53jpnxf556h",
  "01JD0000000000000000000000",
  "active",
  "2026-11-21T10:00:00.000Z",
  "2026-11-21T10:00:00Z",
  "2026-02-30T10:00:00.000Z",
  "2026-11-21T10:00:00.000+01:00",
  "",
  0,
  7,
  -1,
  1.5,
  Number.NaN,
  null,
  undefined,
  {},
  [],
  { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 },
  { inputTokens: 1, outputTokens: 2, costUsd: 0.5 },
  { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5, extra: 1 },
  origin,
  { thread: null, step: null, address: "2W53JPNXF556H", replaced: null },
  { ...origin, replaced: true, step: 0 },
  { ...origin, address: "2w53jpnxf556h" },
  { ...origin, thread: "01jd0000000000000000000000" },
  { ...origin, step: -1 },
  { ...origin, step: 1.5 },
  { ...origin, replaced: "yes" },
  { thread: null, step: null, address: "2W53JPNXF556H" },
  { ...origin, extra: 1 },
  true,
  false,
  failure,
  { ...failure, attempts: 0 },
  { ...failure, code: "" },
  { ...failure, failedAt: "2026-11-21T10:00:00Z" },
  { code: "x", message: "y", attempts: 1 },
  "waiting",
  branchOrigin,
  { ...branchOrigin, role: null },
  { ...branchOrigin, step: 0 },
  { ...branchOrigin, branch: "" },
  { ...branchOrigin, thread: null },
  { ...branchOrigin, address: "2w53jpnxf556h" },
  { ...branchOrigin, extra: 1 },
  roleOutcome,
  endOutcome,
  { ...endOutcome, edge: { index: -1, condition: null, key: null } },
  { ...roleOutcome, edge: undefined },
];

function variants(base: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [base];
  for (const key of Object.keys(base)) {
    const { [key]: _dropped, ...without } = base;
    out.push(without);
    for (const value of candidates) out.push({ ...base, [key]: value });
  }
  out.push({ ...base, surprise: 1 });
  return out;
}

/** The cheap check may refuse what the schema accepts (the schema then decides), never the reverse. */
function expectAgreement(
  isWellFormed: (value: unknown) => boolean,
  schema: typeof workflowEntrySchema | typeof updateSchema | typeof threadRecordSchema | typeof evalReportEntrySchema,
  values: unknown[],
): number {
  let accepted = 0;
  for (const value of values) {
    if (!isWellFormed(value)) continue;
    accepted++;
    const parsed = schema.safeParse(value);
    expect({ value, success: parsed.success }).toEqual({ value, success: true });
    expect(parsed.data).toEqual(value as never);
  }
  return accepted;
}

describe("the ref store's cheap record checks", () => {
  it("accept only records the protocol's schema accepts unchanged", () => {
    expect(expectAgreement(isWellFormedThreadRecord, threadRecordSchema, variants(record))).toBeGreaterThan(10);
    const recovered = { ...record, recoveredFrom: record.head };
    expect(expectAgreement(isWellFormedThreadRecord, threadRecordSchema, variants(recovered))).toBeGreaterThan(10);
    const branch = { ...record, status: "ended", branchOf: branchOrigin, outcome: roleOutcome };
    expect(expectAgreement(isWellFormedThreadRecord, threadRecordSchema, variants(branch))).toBeGreaterThan(10);
    expect(expectAgreement(isWellFormedWorkflowEntry, workflowEntrySchema, variants(entry))).toBeGreaterThan(2);
    expect(expectAgreement(isWellFormedEvalReportEntry, evalReportEntrySchema, variants(report))).toBeGreaterThan(3);
    const { id: _id, createdAt: _created, start: _start, ...update } = record;
    expect(expectAgreement(isWellFormedThreadUpdate, updateSchema, variants(update))).toBeGreaterThan(10);
  });

  it("accept what uwf itself writes", () => {
    expect(isWellFormedThreadRecord(record)).toBe(true);
    expect(isWellFormedThreadRecord({ ...record, recoveredFrom: record.head })).toBe(true);
    expect(isWellFormedThreadRecord({ ...record, status: "waiting", branchOf: branchOrigin })).toBe(true);
    expect(isWellFormedThreadRecord({ ...record, branchOf: { ...branchOrigin, role: null } })).toBe(true);
    expect(isWellFormedThreadUpdate({ status: "ended", outcome: roleOutcome })).toBe(true);
    expect(isWellFormedThreadUpdate({ status: "ended", outcome: endOutcome })).toBe(true);
    expect(isWellFormedThreadUpdate({ head: record.head, status: "ended", updatedAt: new Date().toISOString() })).toBe(
      true,
    );
    expect(isWellFormedWorkflowEntry(entry)).toBe(true);
    expect(isWellFormedEvalReportEntry(report)).toBe(true);
    expect(isWellFormedThreadUpdate({ status: "active", failure: null })).toBe(true);
  });

  it("leave everything else to the schema, which still accepts and normalises what it allows", async () => {
    const refs = createMemoryRefStore();
    const { cacheReadTokens: _read, cacheWriteTokens: _write, ...shortUsage } = record.usage;
    await refs.createThread({ ...record, usage: shortUsage as typeof record.usage, createdAt: "2026-11-21T10:00:00Z" });
    const stored = await refs.getThread(record.id);
    expect(stored?.usage).toEqual({ ...shortUsage, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(stored?.createdAt).toBe("2026-11-21T10:00:00Z");
    await expect(refs.createThread({ ...record, id: sampleThreadRecord().id.replace("0", "I") })).rejects.toThrow(
      /invalid thread record: id: expected a 26-character thread id/,
    );
  });

  it("keep the caller's object out of the store", async () => {
    const refs = createMemoryRefStore();
    const mine = structuredClone(record);
    await refs.createThread(mine);
    mine.usage.inputTokens = 999;
    expect((await refs.getThread(record.id))?.usage.inputTokens).toBe(record.usage.inputTokens);
  });
});
