import type { Store } from "@uwf/cas";

/**
 * Adds texts to a thread's search index entry (`uwf list --search`, the UI's `?q=`): derived data, so
 * a store that fails to take them fails no step or start; the thread is still found by its id and
 * workflow (the store indexes those itself) and by what later steps add.
 */
export async function indexThreadWords(store: Pick<Store, "refs">, threadId: string, texts: readonly string[]) {
  try {
    await store.refs.indexThreadText(threadId, texts);
  } catch {
    // Only the search index misses these words.
  }
}

/** What a thread's start gives its index entry: the prompt and the inputs' values. */
export function startSearchTexts(prompt: string, inputs: Record<string, unknown> | undefined): string[] {
  return [prompt, ...(inputs === undefined ? [] : valueTexts(inputs))];
}

/** What a step gives its thread's index entry: the role and the values of the fields it reported. */
export function stepSearchTexts(role: string, fields: Record<string, unknown>): string[] {
  return [role, ...valueTexts(fields)];
}

/** The strings, numbers and booleans inside a JSON value, each as text, depth first. */
function valueTexts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(valueTexts);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(valueTexts);
  return [];
}
