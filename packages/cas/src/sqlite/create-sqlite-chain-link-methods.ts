import type { Database } from "bun:sqlite";
import { parseAddress } from "../encoding/parse-address.ts";
import type { ChainLink, ChainRefs } from "../refs/chain-refs.ts";
import { checkChainLinks } from "../refs/check-chain-links.ts";

type ChainLinkMethods = Pick<ChainRefs, "rememberChainLinks" | "recallChain" | "forgetChainLinks">;

/** Links per query when recalling a chain: one query for most threads (all(), not iterate(): 1 ms less per 1,000). */
const RECALL_PAGE = 4096;

/** The chain-link cache of a SQLite ref store (see `RefStore.rememberChainLinks`). */
export function createSqliteChainLinkMethods(database: Database): ChainLinkMethods {
  const insertAll = database.transaction((links: readonly ChainLink[]) => {
    const insert = database.query<unknown, [string, string, Uint8Array]>(
      `INSERT INTO chain_links (address, prev, bytes) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET prev = excluded.prev, bytes = excluded.bytes`,
    );
    for (const link of links) insert.run(link.address, link.prev, link.bytes);
  });
  const deleteAll = database.transaction((addresses: readonly string[]) => {
    const remove = database.query<unknown, [string]>("DELETE FROM chain_links WHERE address = ?");
    for (const address of addresses) remove.run(address);
  });
  // Without ORDER BY, SQLite returns a recursive query's rows in the order it finds them: newest
  // first here. Pages bound what a cycle could make one query return.
  const selectPage = () =>
    database.query<ChainLink, [string, number]>(
      `WITH RECURSIVE chain (address, prev, bytes) AS (
       SELECT address, prev, bytes FROM chain_links WHERE address = ?
       UNION ALL
       SELECT link.address, link.prev, link.bytes FROM chain_links AS link JOIN chain ON link.address = chain.prev
       LIMIT ?
     )
     SELECT address, prev, bytes FROM chain`,
    );
  return {
    async rememberChainLinks(links) {
      const checked = checkChainLinks(links);
      if (checked.length > 0) insertAll(checked);
    },
    async recallChain(head) {
      const recalled: ChainLink[] = [];
      const seen = new Set<string>();
      let from = parseAddress(head);
      for (;;) {
        const page = selectPage().all(from, RECALL_PAGE);
        for (const link of page) {
          if (seen.has(link.address)) return recalled; // a cycle: only a corrupted file could hold one
          seen.add(link.address);
          recalled.push(link);
        }
        if (page.length < RECALL_PAGE) return recalled;
        from = (page.at(-1) as ChainLink).prev;
      }
    },
    async forgetChainLinks(addresses) {
      const checked = addresses.map(parseAddress);
      if (checked.length > 0) deleteAll(checked);
    },
  };
}
