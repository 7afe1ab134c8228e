import "./markdown-text.css";

/**
 * A JSON value as a collapsible tree: an object or array is a `<details>` with its size in the summary,
 * open down to `openDepth` levels; strings, numbers, booleans and null are shown as JSON writes them.
 */
export function JsonView(props: { value: unknown; openDepth?: number; testid?: string }) {
  return (
    <div class="json-view" data-testid={props.testid ?? "json-view"}>
      <JsonNode value={props.value} depth={0} openDepth={props.openDepth ?? 1} />
    </div>
  );
}

function JsonNode(props: { value: unknown; depth: number; openDepth: number }) {
  const { value, depth, openDepth } = props;
  if (value === null || typeof value !== "object") {
    return <span class={typeof value === "string" ? "json-string" : "json-scalar"}>{JSON.stringify(value)}</span>;
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value as Record<string, unknown>);
  const count = (noun: string) => `${entries.length} ${noun}${entries.length === 1 ? "" : "s"}`;
  const summary = Array.isArray(value) ? `[ ${count("item")} ]` : `{ ${count("key")} }`;
  if (entries.length === 0) return <span class="json-scalar">{Array.isArray(value) ? "[]" : "{}"}</span>;
  return (
    <details open={depth < openDepth}>
      <summary>{summary}</summary>
      <ul>
        {entries.map(([key, item]) => (
          <li key={key}>
            <span class="json-key">{Array.isArray(value) ? key : JSON.stringify(key)}</span>:{" "}
            <JsonNode value={item} depth={depth + 1} openDepth={openDepth} />
          </li>
        ))}
      </ul>
    </details>
  );
}
