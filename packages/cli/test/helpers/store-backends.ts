import { beforeAll } from "bun:test";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";

/** The two stores the end-to-end tests run on: the home's own files and SQLite, and a PostgreSQL server. */
export const BACKENDS = ["the embedded store", "PostgreSQL"] as const;
export type Backend = (typeof BACKENDS)[number];

/**
 * Starts the test PostgreSQL server once for the file (in a beforeAll) and returns the environment that
 * gives a home `backend`'s store: none for the embedded store, `UWF_STORE` naming a store on the server
 * that no test has used.
 */
export function useBackendEnv(): (backend: Backend) => Record<string, string> {
  let server: TestPostgres | undefined;
  // Starting the server (initdb) can take longer than a hook's default 5 s on a busy machine.
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  return (backend): Record<string, string> => {
    if (backend === "the embedded store") return {};
    if (server === undefined) throw new Error("the test PostgreSQL server is not started");
    return { UWF_STORE: server.newStoreUrl() };
  };
}
