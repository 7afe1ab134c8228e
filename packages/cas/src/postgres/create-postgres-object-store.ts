import { type Address, InternalError } from "@uwf/protocol";
import { hashBytes, hashNode } from "../encoding/hash-node.ts";
import { parseAddress } from "../encoding/parse-address.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import { checkAddressPrefixQuery } from "../objects/check-address-prefix-query.ts";
import type { ObjectStore, TemporaryFileInfo } from "../objects/object-store.ts";
import { parseVerifiedNode } from "../objects/parse-verified-node.ts";
import { asUint8Array } from "./as-uint8-array.ts";
import type { PostgresConnection } from "./postgres-connection.ts";
import { inBatches, postgresValuesList } from "./postgres-values-list.ts";

/** Addresses per query when listing every object, read by key ranges so a gc deleting meanwhile is no trouble. */
const LIST_PAGE = 10_000;

/**
 * Objects as rows of `objects` (address, canonical bytes, write time) in the store's schema. Every
 * write is one statement, so a put is whole or absent and leaves nothing over; a node put again has
 * its bytes rewritten and its write time refreshed (the file store's repair and gc grace). Reads
 * re-hash what they get, as the file store does. Commits are durable, so `durable` changes nothing.
 */
export function createPostgresObjectStore(connection: PostgresConnection, schema: string): ObjectStore {
  const { query } = connection;
  const objects = `"${schema}".objects`;

  async function putAll(nodes: readonly unknown[]): Promise<Address[]> {
    // Encode everything first: an unencodable node fails the batch before anything is written.
    const hashed = nodes.map(hashNode);
    const unique = new Map(hashed.map((entry) => [entry.address, entry.bytes]));
    const writtenAt = Date.now();
    for (const batch of inBatches([...unique])) {
      await query(
        `INSERT INTO ${objects} (address, bytes, written_at) VALUES ${postgresValuesList(batch.length, 3)}
         ON CONFLICT (address) DO UPDATE SET bytes = excluded.bytes, written_at = excluded.written_at`,
        batch.flatMap(([address, bytes]) => [address, bytes, writtenAt]),
      );
    }
    return hashed.map((entry) => entry.address);
  }

  async function readVerified(input: string): Promise<{ address: Address; bytes: Uint8Array }> {
    const address = parseAddress(input);
    const [row] = await query<{ bytes: Uint8Array }>(`SELECT bytes FROM ${objects} WHERE address = $1`, [address]);
    if (row === undefined) throw new NodeNotFoundError(address);
    const bytes = asUint8Array(row.bytes);
    const actual = hashBytes(bytes);
    if (actual !== address) throw new CorruptNodeError(address, `its content hashes to ${actual}`);
    return { address, bytes };
  }

  return {
    put: async (node) => (await putAll([node]))[0] as Address,
    putMany: (nodes) => putAll(nodes),
    get: async (address) => parseVerifiedNode(await readVerified(address)),
    getBytes: async (address) => (await readVerified(address)).bytes,
    has: async (address) =>
      (await query(`SELECT 1 FROM ${objects} WHERE address = $1`, [parseAddress(address)])).length > 0,
    findAddresses: async (input, limit) => {
      const prefix = checkAddressPrefixQuery(input, limit);
      const rows = await query<{ address: Address }>(
        `SELECT address FROM ${objects} WHERE address >= $1 AND address < $2 ORDER BY address LIMIT $3`,
        [prefix, `${prefix}\uffff`, limit],
      );
      return rows.map((row) => row.address);
    },
    delete: async (address) => {
      await query(`DELETE FROM ${objects} WHERE address = $1`, [parseAddress(address)]);
    },
    deleteIfWrittenBefore: async (address, cutoff) => {
      const deleted = await query(`DELETE FROM ${objects} WHERE address = $1 AND written_at < $2 RETURNING 1`, [
        parseAddress(address),
        cutoff,
      ]);
      return deleted.length > 0;
    },
    async *list(): AsyncGenerator<Address> {
      let after = "";
      for (;;) {
        const rows = await query<{ address: Address }>(
          `SELECT address FROM ${objects} WHERE address > $1 ORDER BY address LIMIT $2`,
          [after, LIST_PAGE],
        );
        for (const row of rows) yield row.address;
        if (rows.length < LIST_PAGE) return;
        after = (rows.at(-1) as { address: Address }).address;
      }
    },
    writtenAt: async (address) => {
      const [row] = await query<{ written_at: string | number }>(
        `SELECT written_at FROM ${objects} WHERE address = $1`,
        [parseAddress(address)],
      );
      return row === undefined ? null : Number(row.written_at);
    },
    async *listTemporaryFiles(): AsyncGenerator<TemporaryFileInfo> {
      // Each write is one statement: nothing is ever left over.
    },
    deleteTemporaryFile: async (name) => {
      throw new InternalError(`"${name}" is not a temporary file of this store`);
    },
  };
}
