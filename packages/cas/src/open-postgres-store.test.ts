import { startTestPostgres } from "../test/start-test-postgres.ts";
import { runStoreConformanceSuite } from "./conformance-suite.ts";
import { openPostgresStore } from "./open-postgres-store.ts";

// Against a real server, never skipped: without one, every test fails saying why.
runStoreConformanceSuite("PostgreSQL", async () => {
  const server = await startTestPostgres();
  const store = await openPostgresStore(server.newStoreUrl());
  return { store, cleanup: () => store.close() };
});
