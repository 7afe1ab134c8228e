import { resolveAddress } from "@uwf/cas";
import type { CommandContext } from "../../pipeline/command-context.ts";

/** A node's canonical JSON, as stored (pipe it to jq). */
export async function casGetCommand(options: { address: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const node = await store.objects.get(await resolveAddress(store.objects, options.address));
  return { result: node, format: (value: unknown) => JSON.stringify(value, null, 2) };
}
