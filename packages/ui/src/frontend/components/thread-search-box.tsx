import { useEffect, useRef } from "preact/hooks";
import { useDebounced } from "./thread-live.ts";

/** Milliseconds after the last keystroke a search is applied. */
const SEARCH_DELAY_MS = 200;

/**
 * The threads page's search (`?q=`, as `uwf list --search`): applied as the user types (debounced), at
 * once on Enter; `/` anywhere on the page but in a field focuses it, and Escape in it clears it.
 */
export function ThreadSearchBox(props: { value: string; onApply(value: string): void }) {
  const input = useRef<HTMLInputElement>(null);
  const applyTyped = useDebounced(() => {
    const value = input.current?.value.trim() ?? "";
    if (value !== props.value) props.onApply(value);
  }, SEARCH_DELAY_MS);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <label class="search">
      Search
      <input
        ref={input}
        type="search"
        name="q"
        data-testid="thread-search"
        defaultValue={props.value}
        placeholder="id, prompt, workflow, role or field value — press /"
        aria-keyshortcuts="/"
        onInput={applyTyped}
        onKeyDown={(event) => {
          if (event.key === "Enter") props.onApply(event.currentTarget.value.trim());
          if (event.key === "Escape") {
            event.currentTarget.value = "";
            props.onApply("");
          }
        }}
      />
    </label>
  );
}
