// The `@uwf/cas/test` entry: what other packages' tests and future backends need. Kept out of
// the main entry because it imports bun:test.

export { runStoreConformanceSuite, type StoreFixture } from "./conformance-suite.ts";
export { nodesSharingAnAddressPrefix } from "./nodes-sharing-an-address-prefix.ts";
export { createRandom } from "./random-json-value.ts";
export { createSampleNodes, sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
export {
  type OwnTestPostgres,
  startOwnTestPostgres,
  startTestPostgres,
  type TestPostgres,
} from "./start-test-postgres.ts";
export { type WaitForOptions, waitFor } from "./wait-for.ts";
export { type SampleThread, writeSampleThread } from "./write-sample-thread.ts";
