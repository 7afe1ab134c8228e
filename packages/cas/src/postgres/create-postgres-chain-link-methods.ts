import type { Address } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import type { ChainLink, ChainRefs } from "../refs/chain-refs.ts";
import { checkChainLinks } from "../refs/check-chain-links.ts";
import { asUint8Array } from "./as-uint8-array.ts";
import type { PostgresConnection } from "./postgres-connection.ts";
import { inBatches, postgresValuesList } from "./postgres-values-list.ts";

type ChainLinkMethods = Pick<ChainRefs, "rememberChainLinks" | "recallChain" | "forgetChainLinks">;

/** Links per query when recalling a chain: one query for most threads; pages bound what a cycle could return. */
const RECALL_PAGE = 4096;

/** The chain-link cache of a PostgreSQL ref store (see `RefStore.rememberChainLinks`). */
export function createPostgresChainLinkMethods(connection: PostgresConnection, schema: string): ChainLinkMethods {
  const { query } = connection;
  const chainLinks = `"${schema}".chain_links`;
  return {
    async rememberChainLinks(links) {
      // One row per address (the last given wins): an upsert may not touch a row twice.
      const unique = new Map(checkChainLinks(links).map((link) => [link.address, link]));
      for (const batch of inBatches([...unique.values()])) {
        await query(
          `INSERT INTO ${chainLinks} (address, prev, bytes) VALUES ${postgresValuesList(batch.length, 3)}
           ON CONFLICT (address) DO UPDATE SET prev = excluded.prev, bytes = excluded.bytes`,
          batch.flatMap((link) => [link.address, link.prev, link.bytes]),
        );
      }
    },
    async recallChain(head) {
      const recalled: ChainLink[] = [];
      const seen = new Set<string>();
      let from = parseAddress(head);
      for (;;) {
        const page = await query<{ address: Address; prev: Address; bytes: Uint8Array }>(
          `WITH RECURSIVE chain (address, prev, bytes, depth) AS (
             SELECT address, prev, bytes, 1 FROM ${chainLinks} WHERE address = $1
             UNION ALL
             SELECT link.address, link.prev, link.bytes, chain.depth + 1
             FROM ${chainLinks} AS link JOIN chain ON link.address = chain.prev
             WHERE chain.depth < $2
           )
           SELECT address, prev, bytes FROM chain ORDER BY depth`,
          [from, RECALL_PAGE],
        );
        for (const link of page) {
          if (seen.has(link.address)) return recalled; // a cycle: only a damaged store could hold one
          seen.add(link.address);
          recalled.push({ address: link.address, prev: link.prev, bytes: asUint8Array(link.bytes) });
        }
        if (page.length < RECALL_PAGE) return recalled;
        from = (page.at(-1) as ChainLink).prev;
      }
    },
    async forgetChainLinks(addresses) {
      const checked = addresses.map(parseAddress);
      for (const batch of inBatches(checked)) {
        const list = batch.map((_, index) => `$${index + 1}`).join(", ");
        await query(`DELETE FROM ${chainLinks} WHERE address IN (${list})`, batch);
      }
    },
  };
}
