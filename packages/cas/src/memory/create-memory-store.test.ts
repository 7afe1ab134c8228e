import { runStoreConformanceSuite } from "../testing/conformance-suite.ts";
import { openTestStore } from "../testing/open-test-store.ts";

runStoreConformanceSuite("memory", () => openTestStore("memory"));
