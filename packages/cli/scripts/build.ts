/**
 * Compiles the CLI into one self-contained executable, packages/cli/dist/uwf.
 * Every step is a new process, so start-up time is the product's speed: a compiled,
 * bytecode-cached binary starts several times faster than running the TypeScript sources.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const outfile = resolve(root, "dist/uwf");
rmSync(resolve(root, "dist"), { recursive: true, force: true });
const result = await Bun.build({
  entrypoints: [resolve(root, "src/bin.ts")],
  compile: { outfile },
  bytecode: true,
  minify: true,
  sourcemap: "linked",
  target: "bun",
  format: "esm",
  // Modules that only some commands import (execa, the Anthropic SDK, liquidjs, jsonata) go to chunks
  // loaded on demand, with the Node built-ins they import, instead of being linked at every start-up.
  splitting: true,
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.error(`built ${outfile}`);
