import { REF_SCHEMA_VERSION } from "@uwf/cas";
import type { VersionResult } from "@uwf/protocol";
import { VERSION } from "../version.ts";

/** `uwf version`: uwf's version, the Bun it runs on, and the store schema it reads and writes. */
export async function versionCommand() {
  const result: VersionResult = { version: VERSION, bun: Bun.version, storeSchemaVersion: REF_SCHEMA_VERSION };
  return {
    result,
    format: (value: VersionResult) =>
      `uwf ${value.version}\nbun ${value.bun}\nstore schema ${value.storeSchemaVersion}`,
  };
}
