/**
 * Where start-up time goes: each workspace package (and the heaviest dependencies) compiled on
 * its own exactly as packages/cli/scripts/build.ts compiles the CLI (--compile --bytecode,
 * minified ESM), then timed as whole processes. A variant's median minus the empty program's
 * is what importing that module graph costs the CLI.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type MeasureProcessOptions, measureInterleaved, type Summary } from "./measure.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");

export interface StartupVariant {
  name: string;
  /** What the entry imports. */
  imports: string;
  summary: Summary;
}

/** The module graphs to compile, each with an import that keeps the whole module from being tree-shaken. */
function variants(): { name: string; imports: string; source: () => string }[] {
  const fromCli = (specifier: string) => Bun.resolveSync(specifier, join(repositoryRoot, "packages/cli"));
  const fromProtocol = (specifier: string) => Bun.resolveSync(specifier, join(repositoryRoot, "packages/protocol"));
  const fromWorkflow = (specifier: string) => Bun.resolveSync(specifier, join(repositoryRoot, "packages/workflow"));
  const keep = (path: string) =>
    `import * as module from ${JSON.stringify(path)};\nif (Object.keys(module).length === 0) console.log("empty");\n`;
  return [
    { name: "empty program", imports: "nothing", source: () => "export {};\n" },
    { name: "commander", imports: "commander", source: () => keep(fromCli("commander")) },
    { name: "zod", imports: "zod", source: () => keep(fromProtocol("zod")) },
    { name: "yaml", imports: "yaml", source: () => keep(fromCli("yaml")) },
    {
      name: "ajv + one schema compiled",
      imports: "ajv, generating one validator",
      source: () => ajvSource(fromWorkflow("ajv")),
    },
    {
      name: "liquidjs + one template parsed",
      imports: "liquidjs, configured as edge-template.ts configures it",
      source: () => liquidSource(fromWorkflow("liquidjs")),
    },
    {
      name: "jsonata + one expression compiled",
      imports: "jsonata",
      source: () => jsonataSource(fromWorkflow("jsonata")),
    },
    {
      name: "@uwf/protocol",
      imports: "packages/protocol/src/index.ts",
      source: () => keep(join(repositoryRoot, "packages/protocol/src/index.ts")),
    },
    {
      name: "@uwf/cas",
      imports: "packages/cas/src/index.ts",
      source: () => keep(join(repositoryRoot, "packages/cas/src/index.ts")),
    },
    {
      name: "@uwf/workflow",
      imports: "packages/workflow/src/index.ts",
      source: () => keep(join(repositoryRoot, "packages/workflow/src/index.ts")),
    },
    {
      name: "@uwf/agent-kit",
      imports: "packages/agent-kit/src/index.ts",
      source: () => keep(join(repositoryRoot, "packages/agent-kit/src/index.ts")),
    },
    {
      name: "@uwf/engine",
      imports: "packages/engine/src/index.ts",
      source: () => keep(join(repositoryRoot, "packages/engine/src/index.ts")),
    },
  ];
}

function liquidSource(path: string): string {
  return `import { Liquid } from ${JSON.stringify(path)};
const engine = new Liquid({ strictVariables: true, strictFilters: true, ownPropertyOnly: true, lenientIf: true, templates: {}, locale: "en-US" });
if (engine.parse("Continue after step {{ n }}.").length === 0) console.log("empty");
`;
}

function jsonataSource(path: string): string {
  return `import jsonata from ${JSON.stringify(path)};
const expression = jsonata("steps[-1].output.done = true");
if (expression === undefined) console.log("none");
`;
}

function ajvSource(path: string): string {
  return `import { Ajv } from ${JSON.stringify(path)};
const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateSchema: false });
const validate = ajv.compile({ type: "object", properties: { n: { type: "integer" }, done: { type: "boolean" } }, required: ["n", "done"] });
if (!validate({ n: 1, done: false })) console.log("invalid");
`;
}

export async function compileEntry(entry: string, outfile: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: [entry],
    compile: { outfile },
    bytecode: true,
    minify: true,
    target: "bun",
    format: "esm",
  });
  if (!result.success) throw new Error(`cannot compile ${entry}: ${result.logs.join("\n")}`);
}

/** Compiles every variant, then times them round-robin together with `floor` (the `bun -e 0` options). */
export async function measureStartupSplit(
  directory: string,
  floor: MeasureProcessOptions,
): Promise<{ floor: Summary; variants: StartupVariant[] }> {
  const compiled = [];
  for (const [index, variant] of variants().entries()) {
    let source: string;
    try {
      source = variant.source();
    } catch (error) {
      // A dependency the packages no longer use: nothing to measure, and no reason to fail the suite.
      console.error(`[bench] start-up split: skipping ${variant.name} (${String(error)})`);
      continue;
    }
    const entry = join(directory, `variant-${index}.ts`);
    writeFileSync(entry, source);
    const binary = join(directory, `variant-${index}`);
    await compileEntry(entry, binary);
    compiled.push({ ...variant, binary });
  }
  const [floorSummary, ...summaries] = await measureInterleaved([
    floor,
    ...compiled.map((variant) => ({ ...floor, command: [variant.binary] })),
  ]);
  return {
    floor: floorSummary as Summary,
    variants: compiled.map((variant, index) => ({
      name: variant.name,
      imports: variant.imports,
      summary: summaries[index] as Summary,
    })),
  };
}
