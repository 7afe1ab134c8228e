// The `@uwf/cas/test` entry: what other packages' tests, the benchmarks and future backends need.
// Kept out of the main entry because it imports bun:test.

export { openPostgresConnection } from "../postgres/open-postgres-connection.ts";
export { parsePostgresStoreUrl } from "../postgres/parse-postgres-store-url.ts";
export type { PostgresConnection, PostgresQuery } from "../postgres/postgres-connection.ts";
export { runStoreConformanceSuite, type StoreFixture } from "./conformance-suite.ts";
export { deadPid } from "./dead-pid.ts";
export { nodesSharingAnAddressPrefix } from "./nodes-sharing-an-address-prefix.ts";
export { openPostgresStoreOn, type PostgresStoreOn } from "./open-postgres-store-on.ts";
export { openTestStore, type TestStore, type TestStoreBackend } from "./open-test-store.ts";
export { putSampleStep, type SampleStep, type SampleStepInput } from "./put-sample-step.ts";
export { createRandom } from "./random-json-value.ts";
export { rollBackRefDatabase } from "./roll-back-ref-database.ts";
export { createSampleNodes, sampleThreadId, sampleThreadRecord, sampleWorkflow } from "./sample-nodes.ts";
export { sampleSchedule } from "./schedule-conformance.ts";
export { type ScriptedAgentRunInput, scriptedAgentRun } from "./scripted-agent-run.ts";
export {
  type OwnTestPostgres,
  startOwnTestPostgres,
  startTestPostgres,
  type TestPostgres,
} from "./start-test-postgres.ts";
export { createTemporaryDirectory } from "./temporary-directory.ts";
export { type WaitForOptions, waitFor } from "./wait-for.ts";
export { type SampleThread, writeSampleThread } from "./write-sample-thread.ts";
