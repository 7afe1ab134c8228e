/**
 * Compiles the CLI into one self-contained executable, packages/cli/dist/uwf.
 * Every step is a new process, so start-up time is the product's speed: a compiled,
 * bytecode-cached binary starts several times faster than running the TypeScript sources.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";

/**
 * commander imports `stripVTControlCharacters` from node:util, only to measure help text, and
 * loading node:util's inspect module for it costs every command about 2 ms of start-up
 * (measured). In the compiled binary, commander uses Bun's native equivalent instead. Bun does
 * not pass `node:` imports to plugins, so the import line itself is replaced; the build fails if
 * a commander upgrade changes that line, rather than silently losing the saving.
 */
const NODE_UTIL_IMPORT = "import { stripVTControlCharacters } from 'node:util';";
const commanderWithoutNodeUtil: BunPlugin = {
  name: "commander-without-node-util",
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/](command|help)\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      if (!source.includes(NODE_UTIL_IMPORT)) throw new Error(`${path} no longer has the line: ${NODE_UTIL_IMPORT}`);
      const replacement = "const stripVTControlCharacters = (text) => Bun.stripANSI(text);";
      return { contents: source.replace(NODE_UTIL_IMPORT, replacement), loader: "js" };
    });
  },
};

const root = resolve(import.meta.dir, "..");
// `--outfile PATH` builds elsewhere (the tests build their own binary); the default replaces dist/.
const { values } = parseArgs({ options: { outfile: { type: "string" } } });
const outfile = values.outfile === undefined ? resolve(root, "dist/uwf") : resolve(values.outfile);
if (values.outfile === undefined) rmSync(resolve(root, "dist"), { recursive: true, force: true });
const result = await Bun.build({
  entrypoints: [resolve(root, "src/bin.ts")],
  compile: { outfile },
  bytecode: true,
  minify: true,
  sourcemap: "linked",
  target: "bun",
  format: "esm",
  // Modules that only some commands import (the Anthropic SDK, liquidjs, jsonata) go to chunks
  // loaded on demand, with the Node built-ins they import, instead of being linked at every start-up.
  splitting: true,
  plugins: [commanderWithoutNodeUtil],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.error(`built ${outfile}`);
