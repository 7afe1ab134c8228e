/**
 * Bun's built-in PostgreSQL client against the `postgres` package, on the PostgreSQL store's own
 * statements (`bun bench/postgres-clients.ts`; `--runs N`): both drive the same store code through
 * the PostgresConnection seam, against the test server (or UWF_TEST_POSTGRES_URL), interleaved
 * round by round. Prints medians and 90th percentiles in ms; docs/store.md keeps the figures and the
 * choice they led to.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { type ChainLink, hashNode } from "../packages/cas/src/index.ts";
import {
  openPostgresConnection,
  openPostgresStoreOn,
  type PostgresConnection,
  type PostgresQuery,
  parsePostgresStoreUrl,
  sampleThreadRecord,
  startTestPostgres,
} from "../packages/cas/src/testing/index.ts";

const { values: flags } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const runs = Number(flags.runs);

/** The `postgres` package behind the same seam, with prepared statements as Bun's client has them. */
function openPostgresJsConnection(url: string): PostgresConnection {
  const sql = postgres(url, { max: 4, onnotice: () => {}, connection: { application_name: "uwf" } });
  const queryOn =
    (client: postgres.Sql | postgres.TransactionSql): PostgresQuery =>
    async <Row>(text: string, values: readonly unknown[] = []) =>
      (await client.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as Row[];
  return {
    query: queryOn(sql),
    transaction: <Result>(work: (query: PostgresQuery) => Promise<Result>) =>
      sql.begin((transaction) => work(queryOn(transaction))) as Promise<Result>,
    async listen(channel, onNotify, onListen) {
      const { unlisten } = await sql.listen(channel, onNotify, onListen);
      return unlisten;
    },
    close: () => sql.end(),
  };
}

const CLIENTS: Record<string, (url: string) => PostgresConnection> = {
  "Bun.SQL": (url) => openPostgresConnection(url),
  postgres: openPostgresJsConnection,
};

type Operation = (open: (url: string) => PostgresConnection, url: string) => Promise<number>;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

let serial = 0;
const OPERATIONS: Record<string, Operation> = {
  // A new client and its first statement: what every CLI command pays once.
  "connect + SELECT 1": async (open, url) => {
    const { connectUrl } = parsePostgresStoreUrl(url);
    const connection = open(connectUrl);
    const ms = await timed(() => connection.query("SELECT 1"));
    await connection.close();
    return ms;
  },
  // A read-only command's whole store use: connect, check the schema's version, read one node.
  "open + one get": async (open, url) => {
    const setup = await openPostgresStoreOn(url, open);
    const address = await setup.objects.put({ type: "text/1", text: "read me" });
    await setup.connection.close();
    return timed(async () => {
      const { objects, connection } = await openPostgresStoreOn(url, open);
      await objects.get(address);
      await connection.close();
    });
  },
  "compare-and-swap update": async (open, url) => {
    const { refs, connection } = await openPostgresStoreOn(url, open);
    const record = sampleThreadRecord({ id: `01JD${String(++serial).padStart(22, "0")}` });
    await refs.createThread(record);
    const ms = await timed(() => refs.updateThread(record.id, record.head, { head: "B1XRH20GCX3FB", stepCount: 1 }));
    await connection.close();
    return ms;
  },
  "put of 100 nodes": async (open, url) => {
    const { objects, connection } = await openPostgresStoreOn(url, open);
    const nodes = Array.from({ length: 100 }, (_, index) => ({ type: "text/1", text: `node ${++serial} ${index}` }));
    const ms = await timed(() => objects.putMany(nodes));
    await connection.close();
    return ms;
  },
  "recall of a 1,000-link chain": async (open, url) => {
    const { refs, connection } = await openPostgresStoreOn(url, open);
    const links: ChainLink[] = [];
    let prev = "2W53JPNXF556H";
    for (let index = 0; index < 1000; index++) {
      const { address, bytes } = hashNode({ type: "thread-step/1", run: ++serial, index, body: "x".repeat(300), prev });
      links.push({ address, prev, bytes });
      prev = address;
    }
    await refs.rememberChainLinks(links);
    const ms = await timed(async () => {
      const recalled = await refs.recallChain(prev);
      if (recalled.length !== 1000) throw new Error(`recalled ${recalled.length} links`);
    });
    await connection.close();
    return ms;
  },
};

const server = await startTestPostgres();
const url = server.newStoreUrl();
const samples = new Map<string, number[]>();
for (let round = -2; round < runs; round++) {
  for (const [operation, run] of Object.entries(OPERATIONS)) {
    for (const [client, open] of Object.entries(CLIENTS)) {
      const ms = await run(open, url);
      if (round < 0) continue; // warm-up rounds
      const key = `${operation}\t${client}`;
      samples.set(key, [...(samples.get(key) ?? []), ms]);
    }
  }
}
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
console.log(`| operation | client | median ms | p90 ms |  (${runs} runs each)`);
console.log("| --- | --- | ---: | ---: |");
for (const [key, values] of samples) {
  const sorted = [...values].sort((a, b) => a - b);
  const [operation, client] = key.split("\t");
  console.log(
    `| ${operation} | ${client} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.9).toFixed(2)} |`,
  );
}
