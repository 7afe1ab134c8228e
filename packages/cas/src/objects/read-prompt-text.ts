import type { Address } from "@uwf/protocol";
import type { ObjectStore } from "./object-store.ts";

/**
 * The text of a stored prompt: a `text/1` node's text (every run stored before issue 43, and prompts
 * sent whole), or a `prompt/1` node's parts put back together in order, following each reference to
 * the `text/1` or `prompt/1` node it shares. Null when the node is of neither kind.
 */
export async function readPromptText(objects: ObjectStore, address: Address): Promise<string | null> {
  const texts: string[] = [];
  // Depth first, left to right, without recursion: the parts of a node come before what follows it.
  const pending: ({ ref: string } | { text: string })[] = [{ ref: address }];
  while (pending.length > 0) {
    const part = pending.pop() as { ref: string } | { text: string };
    if ("text" in part) {
      texts.push(part.text);
      continue;
    }
    const node = (await objects.get(part.ref)) as { type?: unknown; text?: unknown; parts?: unknown };
    if (node?.type === "text/1" && typeof node.text === "string") texts.push(node.text);
    else if (node?.type === "prompt/1" && Array.isArray(node.parts)) {
      for (let index = node.parts.length - 1; index >= 0; index--) pending.push(node.parts[index]);
    } else return null;
  }
  return texts.join("");
}
