import type { Database } from "bun:sqlite";
import { InternalError } from "@uwf/protocol";
import type { ClaimedThread, ClaimThreadOptions, LeaseRefs } from "../refs/lease-refs.ts";
import { THREAD_COLUMNS, type ThreadRow, threadFromRow } from "../refs/thread-rows.ts";
import { checkLeaseAgent, checkLeaseHead } from "./check-lease-agent.ts";
import { checkClaimOptions, checkLeaseOptions, checkTime, checkTtl } from "./check-lease-options.ts";
import { type LeaseRow, leaseFromRow, type NewLeaseRow, newLeaseRow } from "./lease-rows.ts";

/** What one acquiring transaction saw and did: the row it replaced or the holder it left in place. */
type Acquired = { granted: true; replaced: LeaseRow | null } | { granted: false; holder: LeaseRow };

/**
 * Step leases on the `leases` table. Acquiring is one upsert inside an immediate (write-locked)
 * transaction: it inserts, or takes over a row whose lease has expired or whose token the caller
 * names (a holder it found dead), and otherwise changes nothing, so two processes can never both
 * hold a thread. Renewing, recording the agent and releasing match on the random token, so a holder
 * whose lease was taken over cannot disturb the new one. A cancel request stays on the row through a
 * takeover, and renewing and releasing return the row, so its holder learns of it.
 */
export function createSqliteLeaseMethods(database: Database): LeaseRefs {
  const selectLease = database.query<LeaseRow, [string]>("SELECT * FROM leases WHERE thread_id = ?");
  const upsertLease = database.query<
    never,
    [string, string, number, string, string | null, number, number, string | null]
  >(
    `INSERT INTO leases (thread_id, token, pid, host, process_start, agent_group, agent_start, acquired_at, expires_at)
     VALUES (?1, ?2, ?3, ?4, ?5, NULL, NULL, ?6, ?7)
     ON CONFLICT (thread_id) DO UPDATE SET token = excluded.token, pid = excluded.pid, host = excluded.host,
       process_start = excluded.process_start, agent_group = NULL, agent_start = NULL,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
     WHERE leases.expires_at <= excluded.acquired_at OR leases.token = ?8`,
  );
  const renewLease = database.query<LeaseRow, [number, string, string]>(
    "UPDATE leases SET expires_at = ? WHERE thread_id = ? AND token = ? RETURNING *",
  );
  const recordAgent = database.query<never, [number | null, string | null, string, string]>(
    "UPDATE leases SET agent_group = ?, agent_start = ? WHERE thread_id = ? AND token = ?",
  );
  const recordHead = database.query<never, [string, string, string]>(
    "UPDATE leases SET intended_head = ? WHERE thread_id = ? AND token = ?",
  );
  const selectHeld = database.query<LeaseRow & { head: string | null }, [string, string]>(
    `SELECT leases.*, threads.head AS head FROM leases LEFT JOIN threads ON threads.id = leases.thread_id
     WHERE leases.thread_id = ? AND leases.token = ?`,
  );
  const deleteLease = database.query<never, [string, string]>("DELETE FROM leases WHERE thread_id = ? AND token = ?");
  const leaveUnsettled = database.query<never, [string, string, string]>(
    `UPDATE leases SET token = ?1, pid = 0, process_start = NULL, agent_group = NULL, agent_start = NULL,
       expires_at = acquired_at, cancel_requested_at = NULL WHERE thread_id = ?2 AND token = ?3`,
  );
  // A dead holder's intended head that no step settled stays on the row, expired and held by no process.
  const release = database.transaction((threadId: string, token: string): LeaseRow | null => {
    const held = selectHeld.get(threadId, token);
    if (held === null) return null;
    const { head, ...row } = held;
    if (row.intended_head !== null && head !== null && head !== row.intended_head) {
      leaveUnsettled.run(crypto.randomUUID(), threadId, token);
    } else deleteLease.run(threadId, token);
    return row;
  });
  const requestCancel = database.query<LeaseRow, [number, string]>(
    `UPDATE leases SET cancel_requested_at = COALESCE(cancel_requested_at, ?1)
     WHERE thread_id = ?2 AND expires_at > ?1 RETURNING *`,
  );
  const selectLeases = database.query<LeaseRow, []>("SELECT * FROM leases ORDER BY thread_id");
  // Under the write lock, the row read first is the one the upsert replaces or leaves.
  const acquire = database.transaction((row: NewLeaseRow, takeOver: string | null): Acquired => {
    const before = selectLease.get(row.thread_id);
    const { changes } = upsertLease.run(
      row.thread_id,
      row.token,
      row.pid,
      row.host,
      row.process_start,
      row.acquired_at,
      row.expires_at,
      takeOver,
    );
    if (changes === 1) {
      // The row kept the request and the intended head of the lease it replaced (the upsert leaves those alone).
      row.cancel_requested_at = before === null ? null : (before.cancel_requested_at as number | null);
      row.intended_head = before === null ? null : before.intended_head;
      return { granted: true, replaced: before };
    }
    // Nothing changed only because a row is there, the one read above.
    return { granted: false, holder: before as LeaseRow };
  });

  // The runnable thread with the lowest id; threads_runnable holds exactly the active, queued ones.
  const selectRunnable = database.query<ThreadRow, [number, string | null, string]>(
    `SELECT ${THREAD_COLUMNS} FROM threads INDEXED BY threads_runnable
     WHERE status = 'active' AND queued = 1 AND (?2 IS NULL OR workflow = ?2)
       AND id NOT IN (SELECT value FROM json_each(?3))
       AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.thread_id = threads.id AND leases.expires_at > ?1)
     ORDER BY id LIMIT 1`,
  );
  // SQLite's write lock makes choosing and taking one step: no other claimer runs in between.
  const claim = database.transaction((options: ClaimThreadOptions): ClaimedThread | null => {
    const thread = selectRunnable.get(
      options.now.getTime(),
      options.workflow ?? null,
      JSON.stringify(options.skip ?? []),
    );
    if (thread === null) return null;
    const row = newLeaseRow(thread.id as string, options);
    const result = acquire(row, null);
    if (!result.granted) throw new InternalError(`claimThread: the lease of ${thread.id} was held after all`);
    const replaced = result.replaced === null ? null : leaseFromRow(result.replaced);
    return { thread: threadFromRow(thread), lease: leaseFromRow(row), replaced };
  });

  return {
    async acquireLease(threadId, options) {
      checkLeaseOptions(options);
      const row = newLeaseRow(threadId, options);
      const result = acquire.immediate(row, options.takeOver ?? null);
      return result.granted
        ? {
            acquired: true,
            lease: leaseFromRow(row),
            replaced: result.replaced === null ? null : leaseFromRow(result.replaced),
          }
        : { acquired: false, holder: leaseFromRow(result.holder) };
    },
    async claimThread(options) {
      checkClaimOptions(options);
      return claim.immediate(options);
    },
    async renewLease(lease, ttlMs, now) {
      checkTtl(ttlMs);
      const renewed = renewLease.get(now.getTime() + ttlMs, lease.threadId, lease.token);
      return renewed === null ? null : leaseFromRow(renewed);
    },
    async recordLeaseAgent(lease, agent) {
      const checked = checkLeaseAgent(agent);
      return recordAgent.run(checked?.group ?? null, checked?.start ?? null, lease.threadId, lease.token).changes === 1;
    },
    async recordLeaseHead(lease, head) {
      const checked = checkLeaseHead(head);
      return recordHead.run(checked, lease.threadId, lease.token).changes === 1;
    },
    async releaseLease(lease) {
      const released = release.immediate(lease.threadId, lease.token);
      return released === null ? null : leaseFromRow(released);
    },
    async requestCancel(threadId, now) {
      const holder = requestCancel.get(checkTime(now), threadId);
      return holder === null ? null : leaseFromRow(holder);
    },
    async forgetLease(lease) {
      return deleteLease.run(lease.threadId, lease.token).changes === 1;
    },
    listLeases: async () => selectLeases.all().map(leaseFromRow),
  };
}
