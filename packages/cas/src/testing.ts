// The `@uwf/cas/test` entry: what other packages' tests and future backends need. Kept out of
// the main entry because it imports bun:test.

export { nodesSharingAnAddressPrefix } from "../test/nodes-sharing-an-address-prefix.ts";
export { createRandom } from "../test/random-json-value.ts";
export {
  type OwnTestPostgres,
  startOwnTestPostgres,
  startTestPostgres,
  type TestPostgres,
} from "../test/start-test-postgres.ts";
export { type WaitForOptions, waitFor } from "../test/wait-for.ts";
export { type SampleThread, writeSampleThread } from "../test/write-sample-thread.ts";
export { runStoreConformanceSuite, type StoreFixture } from "./conformance-suite.ts";
export { createSampleNodes, sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
