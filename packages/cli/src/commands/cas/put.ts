import { messageOf } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { readInputFile } from "../../read-input-file.ts";

/** Stores any JSON document from a file or stdin and prints its address. */
export async function casPutCommand(options: { file?: string }, context: CommandContext) {
  const file = options.file ?? "-";
  const source = file === "-" ? "stdin" : file;
  const text = await readInputFile(file, { cwd: context.cwd, label: source });
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
