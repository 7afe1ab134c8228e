import "./markdown-text.css";
import { useMemo, useState } from "preact/hooks";
import { renderMarkdown } from "./render-markdown.ts";

/**
 * Text from the store shown as markdown (sanitized: see renderMarkdown), with a toggle to its raw text
 * — exactly the bytes stored. `label` names the text for the toggle's accessible name.
 */
export function MarkdownText(props: { text: string; label: string; testid?: string; empty?: string }) {
  const [raw, setRaw] = useState(false);
  const html = useMemo(() => (raw ? "" : renderMarkdown(props.text)), [props.text, raw]);
  if (props.text === "") return <p class="empty">{props.empty ?? "(empty)"}</p>;
  return (
    <div class="markdown-text" data-testid={props.testid} data-view={raw ? "raw" : "markdown"}>
      <button
        type="button"
        class="markdown-toggle"
        aria-pressed={raw}
        aria-label={`Show the ${props.label} ${raw ? "as markdown" : "as raw text"}`}
        data-testid="markdown-toggle"
        onClick={() => setRaw(!raw)}
      >
        {raw ? "Markdown" : "Raw"}
      </button>
      {raw ? (
        <pre class="markdown-raw">{props.text}</pre>
      ) : (
        // Safe to set as HTML: renderMarkdown sanitizes it with DOMPurify
        <div class="markdown-body" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </div>
  );
}
