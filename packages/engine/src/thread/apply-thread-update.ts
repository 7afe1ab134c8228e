import type { ThreadUpdate } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";

/**
 * The record as the ref store holds it after `update`: its fields replaced, a `failure`, `outcome` or
 * `deadline` set to null removed, and the deadline removed by a new status that comes without one.
 */
export function applyThreadUpdate(record: ThreadRecord, update: ThreadUpdate): ThreadRecord {
  const { failure, outcome, deadline, ...merged } = { ...record, ...update };
  const keepsDeadline = update.status === undefined || update.deadline !== undefined;
  return {
    ...merged,
    ...(failure === null || failure === undefined ? {} : { failure }),
    ...(outcome === null || outcome === undefined ? {} : { outcome }),
    ...(deadline === null || deadline === undefined || !keepsDeadline ? {} : { deadline }),
  };
}
