import { describe, expect, it } from "bun:test";
import * as cas from "./index.ts";
import * as testing from "./testing/index.ts";

describe("the @uwf/cas entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(cas).sort()).toEqual([
      "AddressPrefixNotFoundError",
      "AmbiguousAddressError",
      "CorruptNodeError",
      "DEFAULT_GC_GRACE_MS",
      "GcRefusedError",
      "InvalidAddressError",
      "InvalidJsonValueError",
      "InvalidRecordError",
      "InvalidStoreUrlError",
      "LEASE_CLOCK_MARGIN_MS",
      "MIN_ADDRESS_PREFIX",
      "NodeNotFoundError",
      "REF_SCHEMA_VERSION",
      "RefStoreBusyError",
      "RefStoreDamagedError",
      "StoreRefusedError",
      "StoreUnreachableError",
      "ThreadExistsError",
      "addressOfNode",
      "canonicalizeJson",
      "canonicalizeJsonBytes",
      "copyStore",
      "createFileObjectStore",
      "createMemoryObjectStore",
      "createMemoryRefStore",
      "createMemoryStore",
      "createSqliteRefStore",
      "decodeAddress",
      "encodeAddress",
      "findLeaseCutoff",
      "findRefDatabaseDamage",
      "forEachConcurrently",
      "gcStore",
      "hashBytes",
      "hashNode",
      "isAddress",
      "isAddressPrefix",
      "isPostgresStoreUrl",
      "isProcessAlive",
      "isProcessGroupAlive",
      "listStoreRoots",
      "maskStoreUrl",
      "openFileStore",
      "openPostgresStore",
      "parseAddress",
      "parseAddressPrefix",
      "readEveryObject",
      "readProcessStart",
      "refDatabasePath",
      "resolveAddress",
      "setAsideRefDatabase",
      "verifyStore",
      "walkNodes",
    ]);
  });
});

describe("the @uwf/cas/test entry", () => {
  it("exports the conformance suite, the test stores, the sample data, steps, agent runs and threads, the seeded generator, waitFor, temp directories, nodes sharing a prefix, the test PostgreSQL server and the PostgreSQL store's parts the benchmarks drive", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "createRandom",
      "createSampleNodes",
      "createTemporaryDirectory",
      "nodesSharingAnAddressPrefix",
      "openPostgresConnection",
      "openPostgresStoreOn",
      "openTestStore",
      "parsePostgresStoreUrl",
      "putSampleStep",
      "runStoreConformanceSuite",
      "sampleThreadId",
      "sampleThreadRecord",
      "scriptedAgentRun",
      "startOwnTestPostgres",
      "startTestPostgres",
      "waitFor",
      "writeSampleThread",
    ]);
  });
});
