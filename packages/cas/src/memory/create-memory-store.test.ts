import { runStoreConformanceSuite } from "../testing/conformance-suite.ts";
import { createMemoryStore } from "./create-memory-store.ts";

runStoreConformanceSuite("memory", async () => ({ store: createMemoryStore(), cleanup: async () => {} }));
