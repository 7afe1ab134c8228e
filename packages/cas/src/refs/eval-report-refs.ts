import type { EvalReportEntry } from "@uwf/protocol";

export interface ListEvalReportsQuery {
  /** Only the reports of this name (a suite's name, or the label of a selection), compared exactly. */
  name?: string;
  limit?: number;
  offset?: number;
}

export interface ListEvalReportsResult {
  reports: EvalReportEntry[];
  /** How many reports match the name, ignoring limit and offset. */
  total: number;
}

/** The index of evaluation reports: an entry per report, naming its immutable node. */
export interface EvalReportRefs {
  /**
   * Inserts an evaluation report's entry: its id, the `eval-report/1` node that holds the report, the
   * suite's name or a label of the selection, and when it was made. The node is immutable; the entry is
   * what finds it, and what makes it (and every thread head it names) a root `gc` keeps. Throws
   * EvalReportExistsError when the id exists, changing nothing; InvalidRecordError on an entry that
   * breaks evalReportEntrySchema.
   */
  saveEvalReport(entry: EvalReportEntry): Promise<void>;
  /** The entry of this id (exactly as stored: upper case), or null when there is none. */
  getEvalReport(id: string): Promise<EvalReportEntry | null>;
  /** Report ids starting with `prefix` (case-insensitive), in id order, at most `limit` of them. */
  findEvalReportIds(prefix: string, limit: number): Promise<string[]>;
  /**
   * Newest first (by id, which is time-ordered), with the total that match; every report when `query` is
   * empty. `limit` and `offset` must be non-negative integers.
   */
  listEvalReports(query: ListEvalReportsQuery): Promise<ListEvalReportsResult>;
  /** Removes a report's entry (its node stays, for gc to collect once unreachable); false when there is none. */
  deleteEvalReport(id: string): Promise<boolean>;
}
