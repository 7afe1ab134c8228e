import type { ThreadRecord } from "@uwf/protocol";

/** The thread record's keys that zod's schema makes optional: present only on some records (NULL in their columns). */
export const OPTIONAL_RECORD_FIELDS: ReadonlySet<keyof ThreadRecord> = new Set([
  "recoveredFrom",
  "failedUsage",
  "budget",
  "queued",
  "failure",
  "branchOf",
  "outcome",
  "scheduledBy",
  "exploredBy",
  "deadline",
]);
