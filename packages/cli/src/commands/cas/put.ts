import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { CommandContext } from "../../context.ts";
import { UsageError } from "../../errors/usage-error.ts";

/** Stores any JSON document from a file or stdin and prints its address. */
export async function casPutCommand(options: { file?: string }, context: CommandContext) {
  const source = options.file === undefined || options.file === "-" ? "stdin" : options.file;
  const text = source === "stdin" ? await Bun.stdin.text() : readFileSync(resolve(context.cwd, source), "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const store = await context.openStore();
  const address = await store.objects.put(value, { durable: true });
  return { result: { address }, format: (result: { address: string }) => result.address };
}
