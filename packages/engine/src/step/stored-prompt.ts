import type { PromptTextPart } from "@uwf/agent-kit";
import { addressOfNode } from "@uwf/cas";
import { type Address, type PromptNode, type PromptPart, replaceLoneSurrogates, type TextNode } from "@uwf/protocol";

/**
 * A prompt as the store keeps it: the node `address` names (last in `nodes`), and the nodes it refers to
 * that are to be written (not those the previous prompt stored and this one reuses).
 */
export interface StoredPrompt {
  address: Address;
  nodes: (TextNode | PromptNode)[];
}

/**
 * How a step's prompt is stored (issue 43). A prompt with history entries is a `prompt/1` node: each entry
 * is a `text/1` node of its own, referred to, and the rest is text in the node. An entry's text does not
 * change from one prompt to the next while its body is shown the same way, and the store keeps one copy of
 * each text, so a thread's prompts cost the store their new entries, not the whole thread each time.
 * A prompt without entries stays one `text/1` node, as every prompt was before. A lone surrogate is
 * stored as U+FFFD (canonical JSON cannot carry one); parts begin at a line break, so none splits a pair.
 */
export function storedPrompt(
  parts: readonly PromptTextPart[],
  history?: PromptNode["history"],
  /** Entry nodes known to be stored and linked already (the previous prompt's): not written again. */
  stored: ReadonlySet<string> = new Set(),
): StoredPrompt {
  if (!parts.some((part) => part.shared)) {
    const node: TextNode = { type: "text/1", text: replaceLoneSurrogates(parts.map((part) => part.text).join("")) };
    return { address: addressOfNode(node), nodes: [node] };
  }
  const nodes: (TextNode | PromptNode)[] = [];
  const promptParts: PromptPart[] = [];
  for (const part of parts) {
    // Read back from the store by its address: that node is the part, so it is neither hashed nor written again.
    if (part.shared && part.address !== undefined) {
      promptParts.push({ ref: part.address });
      continue;
    }
    const text = replaceLoneSurrogates(part.text);
    if (part.shared) {
      const node: TextNode = { type: "text/1", text };
      const address = addressOfNode(node);
      if (!stored.has(address)) nodes.push(node);
      promptParts.push({ ref: address });
      continue;
    }
    const last = promptParts.at(-1);
    if (last !== undefined && "text" in last) last.text += text;
    else promptParts.push({ text });
  }
  const prompt: PromptNode = { type: "prompt/1", parts: promptParts, ...(history === undefined ? {} : { history }) };
  nodes.push(prompt);
  return { address: addressOfNode(prompt), nodes };
}
