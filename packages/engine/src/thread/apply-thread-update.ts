import type { ThreadUpdate } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";

/** The record as the ref store holds it after `update`: its fields replaced, and a `failure` or `outcome` set to null removed. */
export function applyThreadUpdate(record: ThreadRecord, update: ThreadUpdate): ThreadRecord {
  const { failure, outcome, ...merged } = { ...record, ...update };
  return {
    ...merged,
    ...(failure === null || failure === undefined ? {} : { failure }),
    ...(outcome === null || outcome === undefined ? {} : { outcome }),
  };
}
