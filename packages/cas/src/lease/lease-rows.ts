import type { Address, Lease } from "@uwf/protocol";
import type { AcquireLeaseOptions } from "../refs/lease-refs.ts";

/** A lease as the SQL backends keep it: times in epoch milliseconds, compared in SQL. */
export interface LeaseRow {
  thread_id: string;
  token: string;
  pid: number;
  host: string;
  process_start: string | null;
  agent_group: number | null;
  agent_start: string | null;
  /** PostgreSQL's int8 columns come back as strings. */
  acquired_at: number | string;
  expires_at: number | string;
  cancel_requested_at: number | string | null;
  intended_head: string | null;
}

/** A row this process builds, before any database gives it back: its times are numbers. */
export type NewLeaseRow = LeaseRow & { acquired_at: number; expires_at: number; cancel_requested_at: number | null };

/** The row of a lease just taken: a new random token, no agent yet. */
export function newLeaseRow(threadId: string, options: AcquireLeaseOptions): NewLeaseRow {
  const now = options.now.getTime();
  return {
    thread_id: threadId,
    token: crypto.randomUUID(),
    pid: options.pid,
    host: options.host,
    process_start: options.processStart ?? null,
    agent_group: null,
    agent_start: null,
    acquired_at: now,
    expires_at: now + options.ttlMs,
    cancel_requested_at: null,
    intended_head: null,
  };
}

export function leaseFromRow(row: LeaseRow): Lease {
  return {
    threadId: row.thread_id,
    token: row.token,
    pid: row.pid,
    host: row.host,
    processStart: row.process_start,
    agentGroup: row.agent_group,
    agentStart: row.agent_start,
    acquiredAt: new Date(Number(row.acquired_at)).toISOString(),
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
    cancelRequestedAt:
      row.cancel_requested_at === null ? null : new Date(Number(row.cancel_requested_at)).toISOString(),
    intendedHead: row.intended_head as Address | null,
  };
}
