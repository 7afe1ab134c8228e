/**
 * A `--preload` for a CLI bundle built by `buildCliBundle`: it records every chunk of the bundle that the
 * process loads, in load order, and writes the list to the file named by UWF_RECORD_CHUNKS when the process
 * exits. The chunks are ESM, so loading one evaluates every module in it.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { plugin } from "bun";

const recordFile = process.env.UWF_RECORD_CHUNKS;
const bundleFolder = process.env.UWF_RECORD_BUNDLE;
if (recordFile === undefined || bundleFolder === undefined) {
  throw new Error("record-loaded-chunks needs UWF_RECORD_CHUNKS and UWF_RECORD_BUNDLE");
}
const loaded: string[] = [];
plugin({
  name: "record-loaded-chunks",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, ({ path }) => {
      if (path.startsWith(bundleFolder)) loaded.push(path.slice(bundleFolder.length + 1));
      return { contents: readFileSync(path, "utf8"), loader: "js" };
    });
  },
});
process.once("exit", () => writeFileSync(recordFile, loaded.join("\n")));
