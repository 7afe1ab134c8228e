/**
 * The import graph of the workspace: value imports read with Bun's own transpiler (`scanImports`
 * drops `import type` and all-type specifier lists, which the compiler erases), and beside them the
 * static `import … from` / `export … from` declarations, type-only ones included, read from the text.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The one-way order of the packages: a package may import only packages before it. */
export const PACKAGE_ORDER = [
  "protocol",
  "cas",
  "workflow",
  "agent-kit",
  "engine",
  "eval",
  "ui",
  "otel",
  "cli",
] as const;

export interface SourceFile {
  /** Path relative to the repository root. */
  path: string;
  packageName: string;
  isTest: boolean;
  /** What the file loads when it runs: static and dynamic value imports. */
  imports: { specifier: string; resolved: string | null; dynamic: boolean }[];
  /** Every static import and re-export declaration, `import type` and `export type … from` included. */
  declaredImports: { specifier: string; resolved: string | null }[];
}

/**
 * An `import` or `export` declaration that names a module with `from` (at the start of a line, as
 * the formatter writes every declaration): value, type-only and mixed lists alike. Braces may span
 * lines; quotes, semicolons and backticks may not occur before `from`, so a string is never read as one.
 */
const DECLARATION_FROM = /^(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"'\n]+)["']/gm;

/** The modules `text` names in static import and re-export declarations, type-only ones included. */
export function declaredImportsOf(text: string): string[] {
  return [...text.matchAll(DECLARATION_FROM)].map((match) => match[1] as string);
}

const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

function listTypeScript(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory)) {
    if (entry === "node_modules" || entry === "dist") continue;
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...listTypeScript(path));
    else if (/\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

function isTestFile(path: string): boolean {
  return /\.test\.tsx?$/.test(path) || /\/test\//.test(path) || /\/testing\//.test(path);
}

/** Every TypeScript file under packages/NAME/{src,test,scripts}, with its value imports. */
export function readSourceFiles(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const packageName of readdirSync(join(root, "packages"))) {
    const packageRoot = join(root, "packages", packageName);
    if (!statSync(packageRoot).isDirectory()) continue;
    for (const part of ["src", "test", "scripts"]) {
      const directory = join(packageRoot, part);
      try {
        statSync(directory);
      } catch {
        continue;
      }
      for (const absolute of listTypeScript(directory)) {
        const text = readFileSync(absolute, "utf8").replace(/^#!.*/, "");
        const resolveSpecifier = (specifier: string) =>
          specifier.startsWith(".") ? relative(root, resolve(dirname(absolute), specifier)) : null;
        const imports = transpilers[absolute.endsWith(".tsx") ? "tsx" : "ts"].scanImports(text).map((found) => ({
          specifier: found.path,
          resolved: resolveSpecifier(found.path),
          dynamic: found.kind === "dynamic-import",
        }));
        const declaredImports = declaredImportsOf(text).map((specifier) => ({
          specifier,
          resolved: resolveSpecifier(specifier),
        }));
        const path = relative(root, absolute);
        files.push({ path, packageName, isTest: part !== "src" || isTestFile(path), imports, declaredImports });
      }
    }
  }
  return files;
}

/** `@uwf/NAME/...` → NAME, or null for anything else. */
export function workspacePackageOf(specifier: string): string | null {
  const match = /^@uwf\/([a-z-]+)/.exec(specifier);
  return match?.[1] ?? null;
}

/** Imports of a later package from an earlier one (tests may use the kits of earlier packages only, too). */
export function importsAgainstOrder(files: SourceFile[]): string[] {
  const rank = (name: string) => PACKAGE_ORDER.indexOf(name as (typeof PACKAGE_ORDER)[number]);
  const problems: string[] = [];
  for (const file of files) {
    const own = rank(file.packageName);
    for (const { specifier } of file.imports) {
      const target = workspacePackageOf(specifier);
      if (target === null || target === file.packageName) continue;
      if (own === -1 || rank(target) === -1 || rank(target) > own) {
        problems.push(`${file.path} imports ${specifier} (order: ${PACKAGE_ORDER.join(" ← ")})`);
      }
    }
  }
  return problems;
}

/** Strongly connected components of size > 1 (or self-loops) in a directed graph. */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const lowOf = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    lowOf.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowOf.set(node, Math.min(lowOf.get(node) ?? 0, lowOf.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowOf.set(node, Math.min(lowOf.get(node) ?? 0, indexOf.get(next) ?? 0));
      }
    }
    if (lowOf.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return components;
}

/**
 * Cycles of static imports among the non-test source files, at two grains: between files, type-only
 * imports included (a type cycle ties two files' designs together just as a value cycle does), and
 * between folders of one package, by value imports. Folders are compared at every depth: at depth 1 a package's top-level
 * folders, each with everything under it (so `commands/thread/` importing `pipeline/` and `pipeline/`
 * importing `commands/` is a cycle), at depth 2 their subfolders, and so on. The package's `src` root
 * counts as one folder of its own files, except its `index.ts`, which is the entry and may import every
 * folder. A folder whose files sit beside subfolders is, at the depths below its own, the node of its own
 * files: `commands/*.ts` importing `commands/table/` and the reverse is a cycle too.
 */
export function importCycles(files: SourceFile[]): { files: string[][]; folders: string[][] } {
  const fileGraph = new Map<string, Set<string>>();
  const folderEdges: Array<[string, string]> = [];
  const known = new Set(files.map((file) => file.path));
  for (const file of files) {
    if (file.isTest) continue;
    const fileEdges = fileGraph.get(file.path) ?? new Set<string>();
    fileGraph.set(file.path, fileEdges);
    const from = folderOf(file.path);
    for (const { resolved, dynamic } of file.imports) {
      if (resolved === null || dynamic || !known.has(resolved)) continue;
      fileEdges.add(resolved);
      const to = folderOf(resolved);
      if (from !== null && to !== null && from !== to) folderEdges.push([from, to]);
    }
    for (const { resolved } of file.declaredImports) {
      if (resolved !== null && known.has(resolved)) fileEdges.add(resolved);
    }
  }
  return { files: cyclesOf(fileGraph), folders: folderCycles(folderEdges) };
}

/** Cycles among folders at each depth below a package's source root, each cycle once. */
export function folderCycles(edges: ReadonlyArray<readonly [string, string]>): string[][] {
  const depthOf = (folder: string) => folder.split("/").length - SOURCE_ROOT_DEPTH;
  const deepest = Math.max(0, ...edges.flatMap(([from, to]) => [depthOf(from), depthOf(to)]));
  const found = new Map<string, string[]>();
  for (let depth = 1; depth <= deepest; depth += 1) {
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of edges) {
      const fromAtDepth = truncateFolder(from, depth);
      const toAtDepth = truncateFolder(to, depth);
      if (fromAtDepth === toAtDepth) continue;
      const targets = graph.get(fromAtDepth) ?? new Set<string>();
      targets.add(toAtDepth);
      graph.set(fromAtDepth, targets);
    }
    for (const cycle of cyclesOf(graph)) found.set(cycle.join(" "), cycle);
  }
  return [...found.values()];
}

/** `packages/NAME/src` is three parts deep. */
const SOURCE_ROOT_DEPTH = 3;

/** FOLDER cut to DEPTH parts below its package's source root (a shallower folder is itself). */
function truncateFolder(folder: string, depth: number): string {
  return folder
    .split("/")
    .slice(0, SOURCE_ROOT_DEPTH + depth)
    .join("/");
}

function folderOf(path: string): string | null {
  if (/^packages\/[^/]+\/src\/index\.ts$/.test(path)) return null;
  return dirname(path);
}
