import { messageOf } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { UsageError } from "../../errors/usage-error.ts";
import { readInputFile } from "../../read-input-file.ts";

/** Stores any JSON document from a file or stdin and prints its address. */
export async function casPutCommand(options: { file?: string }, context: CommandContext) {
  const source = options.file === undefined || options.file === "-" ? "stdin" : options.file;
  const text = source === "stdin" ? await Bun.stdin.text() : readInputFile(source, { cwd: context.cwd, label: source });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: not JSON (${messageOf(error)})`);
  }
  const store = await context.openStore();
  const address = await store.objects.put(value, { durable: true });
  return { result: { address }, format: (result: { address: string }) => result.address };
}
