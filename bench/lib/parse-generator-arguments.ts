import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

type StringOptions = Record<string, { type: "string"; default: string }>;

/**
 * The command-line options of a store generator run as a script: `--home DIR`, which it requires
 * (without it, it prints `usage` and exits 2), and `options`, each a string with its default.
 */
export function parseGeneratorArguments<Options extends StringOptions>(
  usage: string,
  options: Options,
): { home: string } & { [Name in keyof Options]: string } {
  const config: ParseArgsOptionsConfig = { home: { type: "string" }, ...options };
  const { values } = parseArgs({ options: config });
  if (typeof values.home !== "string") {
    console.error(usage);
    process.exit(2);
  }
  return values as { home: string } & { [Name in keyof Options]: string };
}
