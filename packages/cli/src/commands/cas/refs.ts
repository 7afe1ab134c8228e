import { resolveAddress } from "@uwf/cas";
import { listNodeRefs } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";

/** The addresses a node points at, in field order. */
export async function casRefsCommand(options: { address: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const refs = listNodeRefs(await store.objects.get(await resolveAddress(store.objects, options.address)));
  return { result: { refs }, format: (value: { refs: string[] }) => value.refs.join("\n") };
}
