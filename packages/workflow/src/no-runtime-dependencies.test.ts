import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What @uwf/workflow must never reach: an SDK, the packages above it, a subprocess or the network.
 * A web server or a validator that only reads workflows imports this package and nothing more.
 */
const FORBIDDEN_MODULES = [
  "@anthropic-ai/sdk",
  "@uwf/agent-kit",
  "@uwf/engine",
  "@uwf/cli",
  "node:child_process",
  "child_process",
];
const FORBIDDEN_CALLS = [/\bBun\s*\.\s*spawn(Sync)?\b/, /\bfetch\s*\(/];

/** Every module a source names: `import ... from`, `export ... from`, `import(...)` and `require(...)`. */
function modulesNamedIn(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** The problems in one file: each forbidden module it names (or a subpath of one) and each forbidden call. */
function findRuntimeDependencies(source: string): string[] {
  const modules = modulesNamedIn(source).filter((name) =>
    FORBIDDEN_MODULES.some((forbidden) => name === forbidden || name.startsWith(`${forbidden}/`)),
  );
  const calls = FORBIDDEN_CALLS.filter((call) => call.test(source)).map((call) => call.source);
  return [...modules, ...calls];
}

const SOURCE_FOLDER = import.meta.dir;

function sourceFiles(): string[] {
  return readdirSync(SOURCE_FOLDER, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort();
}

describe("@uwf/workflow's sources", () => {
  it("import no SDK, no package above workflow, no subprocess and no network", () => {
    const found = sourceFiles().flatMap((name) =>
      findRuntimeDependencies(readFileSync(join(SOURCE_FOLDER, name), "utf8")).map((problem) => `${name}: ${problem}`),
    );
    expect(sourceFiles().length).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });

  it("are checked by a test that sees each kind of forbidden use", () => {
    expect(findRuntimeDependencies('import Anthropic from "@anthropic-ai/sdk";')).toEqual(["@anthropic-ai/sdk"]);
    expect(findRuntimeDependencies('import type { X } from "@uwf/agent-kit/test";')).toEqual(["@uwf/agent-kit/test"]);
    expect(findRuntimeDependencies('const { launch } = await import("@uwf/engine");')).toEqual(["@uwf/engine"]);
    expect(findRuntimeDependencies('export { run } from "@uwf/cli";')).toEqual(["@uwf/cli"]);
    expect(findRuntimeDependencies('const cp = require("node:child_process");')).toEqual(["node:child_process"]);
    expect(findRuntimeDependencies("Bun.spawn(['ls']);")).toHaveLength(1);
    expect(findRuntimeDependencies("const reply = await fetch(url);")).toHaveLength(1);
    expect(findRuntimeDependencies('import { parse } from "yaml";\nconst fetched = prefetch;')).toEqual([]);
  });
});
