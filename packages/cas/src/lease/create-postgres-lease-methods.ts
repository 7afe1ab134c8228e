import type { PostgresConnection, PostgresQuery } from "../postgres/postgres-connection.ts";
import type { LeaseRefs } from "../refs/lease-refs.ts";
import { THREAD_COLUMNS, type ThreadRow, threadFromRow } from "../refs/thread-rows.ts";
import { checkLeaseAgent, checkLeaseHead } from "./check-lease-agent.ts";
import { checkClaimOptions, checkLeaseOptions, checkTime, checkTtl } from "./check-lease-options.ts";
import { type LeaseRow, leaseFromRow, type NewLeaseRow, newLeaseRow } from "./lease-rows.ts";

const LEASE_COLUMNS =
  "thread_id, token, pid, host, process_start, agent_group, agent_start, acquired_at, expires_at, cancel_requested_at, intended_head";

/** What one lease-taking transaction saw and did; null when another process inserted the row meanwhile (look again). */
type Taken = { granted: true; replaced: LeaseRow | null } | { granted: false; holder: LeaseRow } | null;

/**
 * Step leases on the `leases` table. Taking one is a transaction that locks the thread's lease row
 * (SELECT … FOR UPDATE) and then inserts, takes over an expired lease or the one of the holder the
 * caller names, or leaves it: two processes can never both hold a thread, and the taker learns
 * exactly which lease it replaced. A worker's claim first picks a runnable thread with FOR UPDATE
 * SKIP LOCKED, so concurrent claimers pass over the rows others are claiming instead of waiting on
 * them. Renewing, recording the agent and releasing match on the random token, so a holder whose
 * lease was taken over cannot disturb the new one. A cancel request stays on the row through a
 * takeover, and renewing and releasing return the row, so its holder learns of it.
 */
export function createPostgresLeaseMethods(connection: PostgresConnection, schema: string): LeaseRefs {
  const { query } = connection;
  const leases = `"${schema}".leases`;
  const threads = `"${schema}".threads`;

  async function take(transaction: PostgresQuery, row: NewLeaseRow, takeOver: string | undefined): Promise<Taken> {
    const values = [row.thread_id, row.token, row.pid, row.host, row.process_start, row.acquired_at, row.expires_at];
    const [before] = await transaction<LeaseRow>(
      `SELECT ${LEASE_COLUMNS} FROM ${leases} WHERE thread_id = $1 FOR UPDATE`,
      [row.thread_id],
    );
    if (before === undefined) {
      const inserted = await transaction(
        `INSERT INTO ${leases} (${LEASE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, NULL, NULL, $6, $7, NULL, NULL)
         ON CONFLICT (thread_id) DO NOTHING RETURNING 1`,
        values,
      );
      return inserted.length === 1 ? { granted: true, replaced: null } : null;
    }
    const free = Number(before.expires_at) <= Number(row.acquired_at) || before.token === takeOver;
    if (!free) return { granted: false, holder: before };
    // The cancel request of the lease replaced stays, for the new holder to honour; so does its intended head.
    await transaction(
      `UPDATE ${leases} SET token = $2, pid = $3, host = $4, process_start = $5, agent_group = NULL,
         agent_start = NULL, acquired_at = $6, expires_at = $7 WHERE thread_id = $1`,
      values,
    );
    row.cancel_requested_at = before.cancel_requested_at === null ? null : Number(before.cancel_requested_at);
    row.intended_head = before.intended_head;
    return { granted: true, replaced: before };
  }

  return {
    async acquireLease(threadId, options) {
      checkLeaseOptions(options);
      const row = newLeaseRow(threadId, options);
      for (;;) {
        const taken = await connection.transaction((transaction) => take(transaction, row, options.takeOver));
        if (taken === null) continue;
        if (!taken.granted) return { acquired: false, holder: leaseFromRow(taken.holder) };
        const replaced = taken.replaced === null ? null : leaseFromRow(taken.replaced);
        return { acquired: true, lease: leaseFromRow(row), replaced };
      }
    },
    async claimThread(options) {
      checkClaimOptions(options);
      const now = options.now.getTime();
      for (;;) {
        const claimed = await connection.transaction(async (transaction) => {
          const [thread] = await transaction<ThreadRow>(
            `SELECT ${THREAD_COLUMNS} FROM ${threads} AS thread
             WHERE status = 'active' AND queued = 1 AND ($2::text IS NULL OR workflow = $2)
               AND id NOT IN (SELECT jsonb_array_elements_text(CAST($3::text AS jsonb)))
               AND NOT EXISTS (SELECT 1 FROM ${leases} AS lease WHERE lease.thread_id = thread.id AND lease.expires_at > $1)
             ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
            [now, options.workflow ?? null, JSON.stringify(options.skip ?? [])],
          );
          if (thread === undefined) return null;
          const row = newLeaseRow(thread.id as string, options);
          const taken = await take(transaction, row, undefined);
          // Leased since this statement's snapshot (by a step or a claim that just committed): choose again.
          if (taken === null || !taken.granted) return "again" as const;
          const replaced = taken.replaced === null ? null : leaseFromRow(taken.replaced);
          return { thread: threadFromRow(thread), lease: leaseFromRow(row), replaced };
        });
        if (claimed !== "again") return claimed;
      }
    },
    async renewLease(lease, ttlMs, now) {
      checkTtl(ttlMs);
      const [renewed] = await query<LeaseRow>(
        `UPDATE ${leases} SET expires_at = $1 WHERE thread_id = $2 AND token = $3 RETURNING ${LEASE_COLUMNS}`,
        [now.getTime() + ttlMs, lease.threadId, lease.token],
      );
      return renewed === undefined ? null : leaseFromRow(renewed);
    },
    async recordLeaseAgent(lease, agent) {
      const checked = checkLeaseAgent(agent);
      const recorded = await query(
        `UPDATE ${leases} SET agent_group = $1, agent_start = $2 WHERE thread_id = $3 AND token = $4 RETURNING 1`,
        [checked?.group ?? null, checked?.start ?? null, lease.threadId, lease.token],
      );
      return recorded.length === 1;
    },
    async recordLeaseHead(lease, head) {
      const checked = checkLeaseHead(head);
      const recorded = await query(
        `UPDATE ${leases} SET intended_head = $1 WHERE thread_id = $2 AND token = $3 RETURNING 1`,
        [checked, lease.threadId, lease.token],
      );
      return recorded.length === 1;
    },
    async releaseLease(lease) {
      // Most often the lease names no head, or the one its thread is at: one statement deletes it.
      const [deleted] = await query<LeaseRow>(
        `DELETE FROM ${leases} AS lease WHERE thread_id = $1 AND token = $2 AND (intended_head IS NULL
           OR NOT EXISTS (SELECT 1 FROM ${threads} AS thread WHERE thread.id = lease.thread_id AND thread.head <> lease.intended_head))
         RETURNING ${LEASE_COLUMNS}`,
        [lease.threadId, lease.token],
      );
      if (deleted !== undefined) return leaseFromRow(deleted);
      // A dead holder's intended head that no step settled stays on the row, expired and held by no process.
      const released = await connection.transaction(async (transaction) => {
        const [held] = await transaction<LeaseRow & { head: string | null }>(
          `SELECT ${LEASE_COLUMNS.split(", ")
            .map((column) => `lease.${column}`)
            .join(", ")}, thread.head AS head
           FROM ${leases} AS lease LEFT JOIN ${threads} AS thread ON thread.id = lease.thread_id
           WHERE lease.thread_id = $1 AND lease.token = $2 FOR UPDATE OF lease`,
          [lease.threadId, lease.token],
        );
        if (held === undefined) return null;
        const { head, ...row } = held;
        if (row.intended_head !== null && head !== null && head !== row.intended_head) {
          await transaction(
            `UPDATE ${leases} SET token = $3, pid = 0, process_start = NULL, agent_group = NULL, agent_start = NULL,
               expires_at = acquired_at, cancel_requested_at = NULL WHERE thread_id = $1 AND token = $2`,
            [lease.threadId, lease.token, crypto.randomUUID()],
          );
        } else
          await transaction(`DELETE FROM ${leases} WHERE thread_id = $1 AND token = $2`, [lease.threadId, lease.token]);
        return row;
      });
      return released === null ? null : leaseFromRow(released);
    },
    async requestCancel(threadId, now) {
      const [holder] = await query<LeaseRow>(
        `UPDATE ${leases} SET cancel_requested_at = COALESCE(cancel_requested_at, $1)
         WHERE thread_id = $2 AND expires_at > $1 RETURNING ${LEASE_COLUMNS}`,
        [checkTime(now), threadId],
      );
      return holder === undefined ? null : leaseFromRow(holder);
    },
    async forgetLease(lease) {
      const deleted = await query(`DELETE FROM ${leases} WHERE thread_id = $1 AND token = $2 RETURNING 1`, [
        lease.threadId,
        lease.token,
      ]);
      return deleted.length === 1;
    },
    listLeases: async () =>
      (await query<LeaseRow>(`SELECT ${LEASE_COLUMNS} FROM ${leases} ORDER BY thread_id`)).map(leaseFromRow),
  };
}
