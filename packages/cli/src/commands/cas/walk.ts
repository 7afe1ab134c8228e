import { parseAddressPrefix, resolveAddress, walkNodes } from "@uwf/cas";
import { nodeKind } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";

export interface WalkedNode {
  address: string;
  kind: string | null;
}

/** Every node reachable from the given ones, each once. */
export async function casWalkCommand(options: { addresses: string[] }, context: CommandContext) {
  const references = options.addresses.map(parseAddressPrefix);
  const store = await context.openStore({ create: false });
  const roots: string[] = [];
  for (const reference of references) roots.push(await resolveAddress(store.objects, reference));
  const nodes: WalkedNode[] = [];
  await walkNodes(store.objects, roots, {
    visit: (address, node) => {
      nodes.push({ address, kind: nodeKind(node) });
    },
  });
  return {
    result: { nodes },
    format: (value: { nodes: WalkedNode[] }) =>
      value.nodes.map((node) => `${node.address} ${node.kind ?? "json"}`).join("\n"),
  };
}
