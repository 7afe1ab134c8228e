/**
 * Puts the compiled uwf on the PATH for use anywhere: copies packages/cli/dist/uwf (one
 * self-contained executable, built by `bun run build`) to `--prefix DIR`, else `$PREFIX`, else
 * `~/.local`, under `bin/`. The copy is written beside the target and renamed over it, so a uwf
 * that is running (a worker) keeps its old file and no one ever runs half a binary.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { parseArgs } from "node:util";

// `--from FILE` installs another build (the tests install one they compiled themselves).
const { values } = parseArgs({ options: { prefix: { type: "string" }, from: { type: "string" } } });
const binary = resolve(values.from ?? resolve(import.meta.dir, "../dist/uwf"));
const prefix = resolve(values.prefix ?? process.env.PREFIX ?? join(process.env.HOME ?? homedir(), ".local"));
const bin = join(prefix, "bin");
const target = join(bin, "uwf");

if (!existsSync(binary)) {
  console.error(`uwf: ${binary} is missing: run \`bun run build\` first (\`npm run install-uwf\` does both)`);
  process.exit(1);
}
mkdirSync(bin, { recursive: true });
const temporary = join(bin, `.uwf-${process.pid}.tmp`);
try {
  copyFileSync(binary, temporary);
  chmodSync(temporary, 0o755);
  renameSync(temporary, target);
} finally {
  rmSync(temporary, { force: true });
}
console.error(`installed ${target}`);
const onPath = (process.env.PATH ?? "").split(delimiter).some((folder) => folder !== "" && resolve(folder) === bin);
if (!onPath) console.error(`${bin} is not on your PATH: add  export PATH="${bin}:$PATH"  to your shell's profile`);
