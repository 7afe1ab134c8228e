import type { Lease } from "@uwf/protocol";
import { checkLeaseAgent } from "./check-lease-agent.ts";
import { checkLeaseOptions, checkTtl } from "./check-lease-options.ts";
import type { PostgresConnection } from "./postgres-connection.ts";
import type { RefStore } from "./store.ts";

interface LeaseRow {
  thread_id: string;
  token: string;
  pid: number;
  host: string;
  process_start: string | null;
  agent_group: number | null;
  agent_start: string | null;
  /** int8 columns come back as strings. */
  acquired_at: number | string;
  expires_at: number | string;
}

const LEASE_COLUMNS = "thread_id, token, pid, host, process_start, agent_group, agent_start, acquired_at, expires_at";

/**
 * Step leases on the `leases` table. Acquiring is one transaction that locks the thread's row
 * (SELECT … FOR UPDATE) and then inserts, takes over an expired lease or the one of the holder the
 * caller names, or leaves it: two processes can never both hold a thread, and the taker learns
 * exactly which lease it replaced. Renewing, recording the agent and releasing match on the random
 * token, so a holder whose lease was taken over cannot disturb the new one.
 */
export function createPostgresLeaseMethods(
  connection: PostgresConnection,
  schema: string,
): Pick<RefStore, "acquireLease" | "renewLease" | "recordLeaseAgent" | "releaseLease" | "listLeases"> {
  const { query } = connection;
  const leases = `"${schema}".leases`;
  return {
    async acquireLease(threadId, options) {
      checkLeaseOptions(options);
      const now = options.now.getTime();
      const row: LeaseRow = {
        thread_id: threadId,
        token: crypto.randomUUID(),
        pid: options.pid,
        host: options.host,
        process_start: options.processStart ?? null,
        agent_group: null,
        agent_start: null,
        acquired_at: now,
        expires_at: now + options.ttlMs,
      };
      const values = [row.thread_id, row.token, row.pid, row.host, row.process_start, now, row.expires_at];
      for (;;) {
        const outcome = await connection.transaction(async (transaction) => {
          const [before] = await transaction<LeaseRow>(
            `SELECT ${LEASE_COLUMNS} FROM ${leases} WHERE thread_id = $1 FOR UPDATE`,
            [threadId],
          );
          if (before === undefined) {
            const inserted = await transaction(
              `INSERT INTO ${leases} (${LEASE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, NULL, NULL, $6, $7)
               ON CONFLICT (thread_id) DO NOTHING RETURNING 1`,
              values,
            );
            // Another process inserted one since the SELECT: look again.
            return inserted.length === 1 ? { granted: true as const, replaced: null } : null;
          }
          const free = Number(before.expires_at) <= now || before.token === options.takeOver;
          if (!free) return { granted: false as const, holder: before };
          await transaction(
            `UPDATE ${leases} SET token = $2, pid = $3, host = $4, process_start = $5, agent_group = NULL,
               agent_start = NULL, acquired_at = $6, expires_at = $7 WHERE thread_id = $1`,
            values,
          );
          return { granted: true as const, replaced: before };
        });
        if (outcome === null) continue;
        if (!outcome.granted) return { acquired: false, holder: leaseFromRow(outcome.holder) };
        const replaced = outcome.replaced === null ? null : leaseFromRow(outcome.replaced);
        return { acquired: true, lease: leaseFromRow(row), replaced };
      }
    },
    async renewLease(lease, ttlMs, now) {
      checkTtl(ttlMs);
      const renewed = await query(
        `UPDATE ${leases} SET expires_at = $1 WHERE thread_id = $2 AND token = $3 RETURNING 1`,
        [now.getTime() + ttlMs, lease.threadId, lease.token],
      );
      return renewed.length === 1;
    },
    async recordLeaseAgent(lease, agent) {
      const checked = checkLeaseAgent(agent);
      const recorded = await query(
        `UPDATE ${leases} SET agent_group = $1, agent_start = $2 WHERE thread_id = $3 AND token = $4 RETURNING 1`,
        [checked?.group ?? null, checked?.start ?? null, lease.threadId, lease.token],
      );
      return recorded.length === 1;
    },
    async releaseLease(lease) {
      await query(`DELETE FROM ${leases} WHERE thread_id = $1 AND token = $2`, [lease.threadId, lease.token]);
    },
    listLeases: async () =>
      (await query<LeaseRow>(`SELECT ${LEASE_COLUMNS} FROM ${leases} ORDER BY thread_id`)).map(leaseFromRow),
  };
}

function leaseFromRow(row: LeaseRow): Lease {
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
  };
}
