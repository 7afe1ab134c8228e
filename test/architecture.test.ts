import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  cyclesOf,
  declaredImportsOf,
  folderCycles,
  importCycles,
  importsAgainstOrder,
  PACKAGE_ORDER,
  readSourceFiles,
  type SourceFile,
} from "./import-graph.ts";

const root = join(import.meta.dir, "..");
const files = readSourceFiles(root);

describe("the workspace's layering (docs/architecture.md)", () => {
  it("reads every package's sources", () => {
    const packages = new Set(files.map((file) => file.packageName));
    expect([...packages].sort()).toEqual([...PACKAGE_ORDER].sort());
  });

  it("has no package importing one after it in the order protocol ← cas ← workflow ← agent-kit ← engine ← eval ← ui ← otel ← cli", () => {
    expect(importsAgainstOrder(files)).toEqual([]);
  });

  it("declares in each package.json only workspace packages before it", () => {
    const problems: string[] = [];
    for (const [rank, name] of PACKAGE_ORDER.entries()) {
      const manifest = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"));
      for (const field of ["dependencies", "devDependencies"]) {
        for (const dependency of Object.keys(manifest[field] ?? {})) {
          const match = /^@uwf\/(.+)$/.exec(dependency);
          if (match === null) continue;
          const target = PACKAGE_ORDER.indexOf(match[1] as (typeof PACKAGE_ORDER)[number]);
          if (target === -1 || target >= rank) problems.push(`packages/${name}/package.json ${field}: ${dependency}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // Its sources are checked by packages/workflow/src/no-runtime-dependencies.test.ts; this is its manifest.
  it("does not give @uwf/workflow an SDK to depend on", () => {
    const manifest = JSON.parse(readFileSync(join(root, "packages/workflow/package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith("@anthropic-ai/"))).toEqual([]);
  });

  // `uwf --version` and `uwf step` must not pay for the web server and its frontend (issue 30).
  it("loads @uwf/ui only when `uwf ui` runs", () => {
    const uiCommandFolder = "packages/cli/src/commands/ui/";
    const eager = files
      .filter((file) => file.packageName === "cli" && !file.isTest && !file.path.startsWith(uiCommandFolder))
      .flatMap((file) =>
        file.imports
          .filter((found) => !found.dynamic)
          .filter((found) => found.specifier === "@uwf/ui" || found.resolved?.startsWith(uiCommandFolder) === true)
          .map((found) => `${file.path} imports ${found.specifier}`),
      );
    expect(eager).toEqual([]);
  });

  // Without OTEL_EXPORTER_OTLP_ENDPOINT a step must not pay for the OpenTelemetry packages (docs/observability.md).
  it("loads @uwf/otel only when an OTLP endpoint is set or `uwf trace` runs", () => {
    const lazyFolders = ["packages/cli/src/telemetry/", "packages/cli/src/commands/trace/"];
    const eager = files
      .filter((file) => file.packageName === "cli" && !file.isTest)
      .flatMap((file) =>
        file.imports
          .filter((found) => !found.dynamic)
          .filter(
            (found) =>
              (found.specifier === "@uwf/otel" && !lazyFolders.some((folder) => file.path.startsWith(folder))) ||
              found.resolved === "packages/cli/src/telemetry/live-telemetry.ts" ||
              found.resolved?.startsWith("packages/cli/src/commands/trace/") === true,
          )
          .map((found) => `${file.path} imports ${found.specifier}`),
      );
    expect(eager).toEqual([]);
  });

  // Likewise for the MCP SDK: only `uwf mcp` loads it (issue 33).
  it("loads the MCP SDK and the MCP server only when `uwf mcp` runs", () => {
    const mcpCommandFolder = "packages/cli/src/commands/mcp/";
    const eager = files
      .filter((file) => file.packageName === "cli" && !file.isTest && !file.path.startsWith(mcpCommandFolder))
      .flatMap((file) =>
        file.imports
          .filter((found) => !found.dynamic)
          .filter(
            (found) =>
              found.specifier.startsWith("@modelcontextprotocol/") ||
              found.resolved?.startsWith(mcpCommandFolder) === true,
          )
          .map((found) => `${file.path} imports ${found.specifier}`),
      );
    expect(eager).toEqual([]);
  });

  it("has no import cycle between source files, type-only imports included", () => {
    expect(importCycles(files).files).toEqual([]);
  });

  it("has no value-carrying import cycle between any two folders of a package, at any depth", () => {
    expect(importCycles(files).folders).toEqual([]);
  });
});

describe("the import graph's cycle finder", () => {
  it("finds a cycle, a self-loop, and nothing in a chain", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["d"])],
      ["e", new Set(["f"])],
      ["f", new Set<string>()],
    ]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"], ["d"]]);
  });
});

describe("the declared imports of a file", () => {
  it("are its import and re-export declarations, type-only ones included, over several lines too", () => {
    const text = [
      'import { readFileSync } from "node:fs";',
      'import type { A } from "./a.ts";',
      'import { type B, c } from "./b.ts";',
      "import type {",
      "  D,",
      "  E,",
      '} from "./d.ts";',
      'export type { F } from "./f.ts";',
      'export { g } from "./g.ts";',
      'export * from "./h.ts";',
      "const text = \"import x from './not-an-import.ts'\";",
      'const later = await import("./lazy.ts");',
      'import "./side-effect.ts";',
    ].join("\n");
    expect(declaredImportsOf(text)).toEqual(["node:fs", "./a.ts", "./b.ts", "./d.ts", "./f.ts", "./g.ts", "./h.ts"]);
  });

  it("close a file cycle that a type-only import makes, but not a folder cycle", () => {
    const file = (path: string, imports: string[], declared: string[]): SourceFile => ({
      path,
      packageName: "p",
      isTest: false,
      imports: imports.map((resolved) => ({ specifier: resolved, resolved, dynamic: false })),
      declaredImports: [...imports, ...declared].map((resolved) => ({ specifier: resolved, resolved })),
    });
    const cycles = importCycles([
      file("packages/p/src/launch/find.ts", ["packages/p/src/mcp/find-mcp.ts"], []),
      file("packages/p/src/mcp/find-mcp.ts", [], ["packages/p/src/launch/find.ts"]),
    ]);
    expect(cycles.files).toEqual([["packages/p/src/launch/find.ts", "packages/p/src/mcp/find-mcp.ts"]]);
    expect(cycles.folders).toEqual([]);
  });
});

describe("the folder cycle finder", () => {
  it("sees two top-level folders in a cycle through their subfolders", () => {
    const edges = [
      ["packages/p/src/commands/thread", "packages/p/src/pipeline"],
      ["packages/p/src/pipeline", "packages/p/src/commands"],
    ] as const;
    expect(folderCycles(edges)).toEqual([["packages/p/src/commands", "packages/p/src/pipeline"]]);
  });

  it("sees a folder's own files and its subfolder in a cycle, and the source root's files and a folder", () => {
    expect(
      folderCycles([
        ["packages/p/src/commands", "packages/p/src/commands/table"],
        ["packages/p/src/commands/table", "packages/p/src/commands"],
      ]),
    ).toEqual([["packages/p/src/commands", "packages/p/src/commands/table"]]);
    expect(
      folderCycles([
        ["packages/p/src", "packages/p/src/errors"],
        ["packages/p/src/errors/deep", "packages/p/src"],
      ]),
    ).toEqual([["packages/p/src", "packages/p/src/errors"]]);
  });

  it("finds nothing when folders import one way, however deep", () => {
    const edges = [
      ["packages/p/src/commands/thread", "packages/p/src/pipeline"],
      ["packages/p/src/commands", "packages/p/src/commands/thread"],
      ["packages/p/src/pipeline/signals", "packages/p/src/format"],
      ["packages/q/src/pipeline", "packages/q/src/commands"],
    ] as const;
    expect(folderCycles(edges)).toEqual([]);
  });
});
