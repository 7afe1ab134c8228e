import { runStoreConformanceSuite } from "../testing/conformance-suite.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
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
