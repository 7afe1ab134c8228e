import type { Database } from "bun:sqlite";
import type { Lease } from "@uwf/protocol";
import { checkLeaseOptions, checkTtl } from "./check-ref-input.ts";
import type { RefStore } from "./store.ts";

interface LeaseRow {
  thread_id: string;
  token: string;
  pid: number;
  host: string;
  acquired_at: number;
  expires_at: number;
}

/**
 * Step leases on the `leases` table. Acquiring is one upsert inside an immediate (write-locked)
 * transaction: it inserts, or takes over a row whose lease has expired, and otherwise changes
 * nothing, so two processes can never both hold a thread. Renewing and releasing match on the
 * random token, so a holder whose lease expired and was taken over cannot disturb the new one.
 */
export function createSqliteLeaseMethods(
  database: Database,
): Pick<RefStore, "acquireLease" | "renewLease" | "releaseLease" | "listLeases"> {
  const selectLease = database.query<LeaseRow, [string]>("SELECT * FROM leases WHERE thread_id = ?");
  const upsertLease = database.query<never, [string, string, number, string, number, number]>(
    `INSERT INTO leases (thread_id, token, pid, host, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET token = excluded.token, pid = excluded.pid, host = excluded.host,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
     WHERE leases.expires_at <= excluded.acquired_at`,
  );
  const renewLease = database.query<never, [number, string, string]>(
    "UPDATE leases SET expires_at = ? WHERE thread_id = ? AND token = ?",
  );
  const releaseLease = database.query<never, [string, string]>("DELETE FROM leases WHERE thread_id = ? AND token = ?");
  const selectLeases = database.query<LeaseRow, []>("SELECT * FROM leases ORDER BY thread_id");
  // Returns the live holder when the lease was not granted; the row exists then, under the same lock.
  const acquire = database.transaction((row: LeaseRow): LeaseRow | null => {
    const { changes } = upsertLease.run(row.thread_id, row.token, row.pid, row.host, row.acquired_at, row.expires_at);
    return changes === 1 ? null : selectLease.get(row.thread_id);
  });

  return {
    async acquireLease(threadId, options) {
      checkLeaseOptions(options);
      const now = options.now.getTime();
      const row: LeaseRow = {
        thread_id: threadId,
        token: crypto.randomUUID(),
        pid: options.pid,
        host: options.host,
        acquired_at: now,
        expires_at: now + options.ttlMs,
      };
      const holder = acquire.immediate(row);
      return holder === null
        ? { acquired: true, lease: leaseFromRow(row) }
        : { acquired: false, holder: leaseFromRow(holder) };
    },
    async renewLease(lease, ttlMs, now) {
      checkTtl(ttlMs);
      return renewLease.run(now.getTime() + ttlMs, lease.threadId, lease.token).changes === 1;
    },
    async releaseLease(lease) {
      releaseLease.run(lease.threadId, lease.token);
    },
    listLeases: async () => selectLeases.all().map(leaseFromRow),
  };
}

function leaseFromRow(row: LeaseRow): Lease {
  return {
    threadId: row.thread_id,
    token: row.token,
    pid: row.pid,
    host: row.host,
    acquiredAt: new Date(row.acquired_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
