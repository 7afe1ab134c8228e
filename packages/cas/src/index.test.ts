import { describe, expect, it } from "bun:test";
import * as cas from "./index.ts";
import * as testing from "./testing.ts";

describe("the @uwf/cas entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(cas).sort()).toEqual([
      "CorruptNodeError",
      "DEFAULT_GC_GRACE_MS",
      "GcRefusedError",
      "InvalidAddressError",
      "InvalidJsonValueError",
      "InvalidRecordError",
      "NodeNotFoundError",
      "REF_SCHEMA_VERSION",
      "RefStoreBusyError",
      "RefStoreDamagedError",
      "ThreadExistsError",
      "addressOfNode",
      "canonicalizeJson",
      "canonicalizeJsonBytes",
      "createFileObjectStore",
      "createMemoryObjectStore",
      "createMemoryRefStore",
      "createMemoryStore",
      "createSqliteRefStore",
      "decodeAddress",
      "encodeAddress",
      "findLeaseCutoff",
      "findRefDatabaseDamage",
      "gcStore",
      "hashBytes",
      "hashNode",
      "isAddress",
      "isProcessAlive",
      "isProcessGroupAlive",
      "listStoreRoots",
      "openFileStore",
      "parseAddress",
      "readEveryObject",
      "readProcessStart",
      "refDatabasePath",
      "setAsideRefDatabase",
      "verifyStore",
      "walkNodes",
    ]);
  });
});

describe("the @uwf/cas/test entry", () => {
  it("exports the conformance suite, the sample data, the seeded generator and waitFor", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "createRandom",
      "createSampleNodes",
      "runStoreConformanceSuite",
      "sampleThreadId",
      "sampleThreadRecord",
      "waitFor",
    ]);
  });
});
