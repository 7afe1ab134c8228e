import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { runStoreConformanceSuite } from "./conformance-suite.ts";
import { openFileStore } from "./open-file-store.ts";

runStoreConformanceSuite("file", async () => {
  const home = createTemporaryDirectory();
  const store = await openFileStore(home.path);
  return {
    store,
    cleanup: async () => {
      await store.close();
      home.remove();
    },
  };
});
