import { describe, expect, it } from "bun:test";
import type { EvalReportEntry } from "@uwf/protocol";
import { EvalReportExistsError } from "../errors/eval-report-exists-error.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { listStoreRoots } from "../maintenance/list-store-roots.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { HEAD_A, HEAD_B, HEAD_C } from "./sample-addresses.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

/** An eval report's entry that passes evalReportEntrySchema, with the fields a test cares about overridden. */
function reportEntry(index: number, overrides: Partial<EvalReportEntry> = {}): EvalReportEntry {
  return {
    id: sampleThreadId(index, "01JR"),
    address: HEAD_A,
    name: "smoke",
    createdAt: "2026-03-04T05:06:07.000Z",
    ...overrides,
  };
}

/** The evaluation reports' entries (`EvalReportRefs`) every backend must keep alike. */
export function describeEvalReportConformance(current: CurrentStore): void {
  describe("eval reports", () => {
    it("saves an entry and reads it back as a copy, and nothing for another id", async () => {
      const { refs } = current();
      const entry = reportEntry(1, { name: "suite: review ✓" });
      await refs.saveEvalReport(entry);
      const read = await refs.getEvalReport(entry.id);
      expect(read).toEqual(entry);
      if (read !== null) read.name = "changed";
      expect(await refs.getEvalReport(entry.id)).toEqual(entry);
      expect(await refs.getEvalReport(reportEntry(2).id)).toBeNull();
      expect(await refs.getEvalReport(sampleThreadId(1))).toBeNull();
    });

    it("refuses a second entry with the same id, keeping the first, and entries that break the schema", async () => {
      const { refs } = current();
      const entry = reportEntry(1);
      await refs.saveEvalReport(entry);
      const again = refs.saveEvalReport({ ...entry, address: HEAD_B, name: "other" });
      await expect(again).rejects.toThrow(EvalReportExistsError);
      await expect(again).rejects.toThrow(`eval report ${entry.id} already exists`);
      expect(await refs.getEvalReport(entry.id)).toEqual(entry);
      const bad: object[] = [
        { ...reportEntry(2), id: "../x" },
        { ...reportEntry(2), address: "nope" },
        { ...reportEntry(2), createdAt: "yesterday" },
        { ...reportEntry(2), name: 7 },
        { ...reportEntry(2), extra: true },
        { id: reportEntry(2).id, address: HEAD_A, name: "smoke" },
      ];
      for (const input of bad) {
        await expect(refs.saveEvalReport(input as EvalReportEntry)).rejects.toThrow(InvalidRecordError);
      }
      expect((await refs.listEvalReports({})).total).toBe(1);
    });

    it("lists newest first, by name, with paging and a total", async () => {
      const { refs } = current();
      const names = ["smoke", "nightly", "smoke", "Smoke", "smoke", "50% off"];
      for (const [index, name] of names.entries()) await refs.saveEvalReport(reportEntry(index + 1, { name }));
      const ids = (result: { reports: EvalReportEntry[] }) => result.reports.map((entry) => entry.id);
      const all = await refs.listEvalReports({});
      expect(all.reports).toEqual([6, 5, 4, 3, 2, 1].map((index) => reportEntry(index, { name: names[index - 1] })));
      expect(all.total).toBe(6);
      const page = await refs.listEvalReports({ limit: 2, offset: 1 });
      expect(ids(page)).toEqual([reportEntry(5).id, reportEntry(4).id]);
      expect(page.total).toBe(6);
      const smoke = await refs.listEvalReports({ name: "smoke" });
      expect(ids(smoke)).toEqual([5, 3, 1].map((index) => reportEntry(index).id));
      expect(smoke.total).toBe(3);
      expect(await refs.listEvalReports({ name: "smoke", limit: 1, offset: 1 })).toEqual({
        reports: [reportEntry(3)],
        total: 3,
      });
      expect(ids(await refs.listEvalReports({ name: "50% off" }))).toEqual([reportEntry(6).id]);
      expect(await refs.listEvalReports({ name: "50%" })).toEqual({ reports: [], total: 0 });
      expect(await refs.listEvalReports({ limit: 0 })).toEqual({ reports: [], total: 6 });
      expect(await refs.listEvalReports({ offset: 6 })).toEqual({ reports: [], total: 6 });
      await expect(refs.listEvalReports({ limit: -1 })).rejects.toThrow(InvalidRecordError);
      await expect(refs.listEvalReports({ offset: 1.5 })).rejects.toThrow(InvalidRecordError);
    });

    it("finds report ids by case-insensitive prefix, in id order, at most `limit` of them, and no thread ids", async () => {
      const { refs } = current();
      for (const [index, prefix] of ["01JRAA", "01JRAB", "01JRAA", "01JSZZ"].entries()) {
        await refs.saveEvalReport({ ...reportEntry(index + 1), id: sampleThreadId(index + 1, prefix) });
      }
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(9, "01JRAA") }));
      expect(await refs.findEvalReportIds("01jraa", 10)).toEqual([
        sampleThreadId(1, "01JRAA"),
        sampleThreadId(3, "01JRAA"),
      ]);
      expect(await refs.findEvalReportIds("01JRA", 10)).toHaveLength(3);
      expect(await refs.findEvalReportIds("01JR", 2)).toEqual([
        sampleThreadId(1, "01JRAA"),
        sampleThreadId(3, "01JRAA"),
      ]);
      expect(await refs.findEvalReportIds("01JS", 10)).toEqual([sampleThreadId(4, "01JSZZ")]);
      expect(await refs.findEvalReportIds("7Z", 10)).toEqual([]);
      expect(await refs.findEvalReportIds("%", 10)).toEqual([]);
      expect(await refs.findThreadIds("01JRAA", 10)).toEqual([sampleThreadId(9, "01JRAA")]);
      await expect(refs.findEvalReportIds("01", -1)).rejects.toThrow(InvalidRecordError);
    });

    it("deletes an entry once, after which its id is free again", async () => {
      const { refs } = current();
      const entry = reportEntry(1);
      await refs.saveEvalReport(entry);
      await refs.saveEvalReport(reportEntry(2));
      expect(await refs.deleteEvalReport(entry.id)).toBe(true);
      expect(await refs.getEvalReport(entry.id)).toBeNull();
      expect(await refs.deleteEvalReport(entry.id)).toBe(false);
      expect(await refs.deleteEvalReport(reportEntry(3).id)).toBe(false);
      expect(await refs.listEvalReports({})).toEqual({ reports: [reportEntry(2)], total: 1 });
      expect(await refs.findEvalReportIds("01JR", 10)).toEqual([reportEntry(2).id]);
      await refs.saveEvalReport({ ...entry, address: HEAD_C });
      expect(await refs.getEvalReport(entry.id)).toEqual({ ...entry, address: HEAD_C });
    });

    it("makes every report's node a root of the store, for as long as its entry exists", async () => {
      const store = current();
      await store.refs.createThread(sampleThreadRecord({ start: HEAD_A, head: HEAD_A }));
      await store.refs.saveEvalReport(reportEntry(1, { address: HEAD_B }));
      await store.refs.saveEvalReport(reportEntry(2, { address: HEAD_C }));
      expect([...(await listStoreRoots(store.refs))].sort()).toEqual([HEAD_A, HEAD_B, HEAD_C].sort());
      await store.refs.deleteEvalReport(reportEntry(2).id);
      expect([...(await listStoreRoots(store.refs))].sort()).toEqual([HEAD_A, HEAD_B].sort());
    });
  });
}
