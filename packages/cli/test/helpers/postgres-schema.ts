import { startTestPostgres } from "@uwf/cas/test";
import { SQL } from "bun";

/** A fresh PostgreSQL store for one test, and raw SQL on its tables (what a test does behind uwf's back). */
export interface PostgresSchemaUnderTest {
  /** What `UWF_STORE` names it by. */
  url: string;
  /** Its schema, quoted, to prefix table names with. */
  schema: string;
  /** Runs one statement on its own connection; the rows it returned. */
  run(statement: string): Promise<Record<string, unknown>[]>;
}

/** A new schema on the test PostgreSQL server (started once per test process). */
export async function newPostgresSchema(): Promise<PostgresSchemaUnderTest> {
  const url = (await startTestPostgres()).newStoreUrl();
  return {
    url,
    schema: `"${new URL(url).searchParams.get("schema")}"`,
    async run(statement) {
      const sql = new SQL(url.replace(/\?.*$/, ""), { max: 1 });
      try {
        return [...(await sql.unsafe(statement))] as Record<string, unknown>[];
      } finally {
        await sql.close();
      }
    },
  };
}
