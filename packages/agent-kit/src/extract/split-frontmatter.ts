/** Where the frontmatter is: its YAML text, the reply line it starts on (1-based), and the body after it. */
export type SplitFrontmatterResult =
  | { success: true; yaml: string; firstLine: number; body: string }
  | { success: false; problem: string };

const DASHES = /^---\s*$/;
const CLOSING = /^(---|\.\.\.)\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/;
const YAML_KEY_LINE = /^["']?[\w$-][^:]*:(\s|$)/;
const YAML_FENCE_INFOS = new Set(["yaml", "yml"]);

/**
 * Finds the YAML frontmatter at the start of a reply. Tolerated before it: a
 * byte-order mark, blank lines, and a stray code fence (```yaml, ```markdown,
 * ```) wrapping either the frontmatter alone or the whole reply. Line endings
 * are normalised to `\n`.
 */
export function splitFrontmatter(reply: string): SplitFrontmatterResult {
  const lines = reply
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const first = nextContentLine(lines, 0);
  if (first === -1) {
    return {
      success: false,
      problem: "the reply is empty: it must start with a '---' line, the YAML fields and a closing '---' line",
    };
  }
  const firstText = lines[first] ?? "";
  if (DASHES.test(firstText)) return splitAt(lines, first, null);

  const fence = FENCE.exec(firstText);
  if (fence !== null) {
    const marker = fence[1] ?? "```";
    const info = (fence[2] ?? "").toLowerCase();
    const inner = nextContentLine(lines, first + 1);
    if (inner !== -1 && DASHES.test(lines[inner] ?? "")) return splitAt(lines, inner, marker);
    const looksLikeYaml = YAML_FENCE_INFOS.has(info) || (info === "" && YAML_KEY_LINE.test(lines[inner] ?? ""));
    if (looksLikeYaml) return splitFencedYaml(lines, first, marker);
  }
  return { success: false, problem: noFrontmatterProblem(firstText) };
}

/** Frontmatter opening with `---` on line `open`; `fence` is the marker of a stray fence around it, if any. */
function splitAt(lines: string[], open: number, fence: string | null): SplitFrontmatterResult {
  const close = findLine(lines, open + 1, (line) => CLOSING.test(line));
  if (close === -1) {
    return {
      success: false,
      problem: `the frontmatter opened by '---' on line ${open + 1} is never closed: end the fields with a '---' line`,
    };
  }
  let rest = lines.slice(close + 1);
  if (fence !== null) {
    const after = nextContentLine(rest, 0);
    if (after !== -1 && isClosingFence(rest[after] ?? "", fence)) {
      // The fence wrapped only the frontmatter.
      rest = rest.slice(after + 1);
    } else {
      // The fence wrapped the whole reply: drop its closing line at the end.
      const last = lastContentLine(rest);
      if (last !== -1 && isClosingFence(rest[last] ?? "", fence)) rest = rest.slice(0, last);
    }
  }
  return { success: true, yaml: lines.slice(open + 1, close).join("\n"), firstLine: open + 2, body: cleanBody(rest) };
}

/** A fenced YAML block without dashes: ```yaml, the fields, ```. */
function splitFencedYaml(lines: string[], open: number, fence: string): SplitFrontmatterResult {
  const close = findLine(lines, open + 1, (line) => isClosingFence(line, fence));
  if (close === -1) {
    return {
      success: false,
      problem: `the code fence opened on line ${open + 1} around the frontmatter is never closed`,
    };
  }
  return {
    success: true,
    yaml: lines.slice(open + 1, close).join("\n"),
    firstLine: open + 2,
    body: cleanBody(lines.slice(close + 1)),
  };
}

function noFrontmatterProblem(firstLine: string): string {
  const shown = firstLine.trim().length > 60 ? `${firstLine.trim().slice(0, 60)}…` : firstLine.trim();
  return `no YAML frontmatter found: the reply must start with a '---' line, but it starts with ${JSON.stringify(shown)}`;
}

function isClosingFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  const character = fence[0] ?? "`";
  return trimmed.length >= fence.length && [...trimmed].every((char) => char === character);
}

function cleanBody(lines: string[]): string {
  const start = nextContentLine(lines, 0);
  return start === -1 ? "" : lines.slice(start).join("\n").trimEnd();
}

function nextContentLine(lines: string[], from: number): number {
  return findLine(lines, from, (line) => line.trim() !== "");
}

function lastContentLine(lines: string[]): number {
  for (let index = lines.length - 1; index >= 0; index--) if ((lines[index] ?? "").trim() !== "") return index;
  return -1;
}

function findLine(lines: string[], from: number, test: (line: string) => boolean): number {
  for (let index = from; index < lines.length; index++) if (test(lines[index] ?? "")) return index;
  return -1;
}
