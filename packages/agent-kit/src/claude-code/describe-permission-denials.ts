import type { PermissionDenial } from "@uwf/protocol";

const SHOWN = 3;
const INPUT_LENGTH = 80;

/**
 * The warning for tool calls Claude Code refused for lack of permission:
 * `Claude Code was refused 2 tool calls: Bash(rm -rf build), Write(/etc/hosts); ...`.
 */
export function describePermissionDenials(denials: readonly PermissionDenial[]): string {
  const shown = denials.slice(0, SHOWN).map((denial) => `${denial.tool}(${summarizeInput(denial.input)})`);
  if (denials.length > SHOWN) shown.push(`and ${denials.length - SHOWN} more`);
  const calls = denials.length === 1 ? "1 tool call" : `${denials.length} tool calls`;
  return (
    `Claude Code was refused ${calls} for lack of permission: ${shown.join(", ")}; ` +
    "if the role needs them, allow them in the preset's args (--allowedTools, --permission-mode)"
  );
}

/** The argument that says most about a call: a command, a file path, a pattern, else the input as JSON. */
function summarizeInput(input: unknown): string {
  let summary: string;
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const fields = input as Record<string, unknown>;
    const key = ["command", "file_path", "path", "pattern", "url"].find((name) => typeof fields[name] === "string");
    summary = key === undefined ? JSON.stringify(input) : String(fields[key]);
  } else {
    summary = JSON.stringify(input) ?? "";
  }
  summary = summary.replace(/\s+/g, " ").trim();
  return summary.length > INPUT_LENGTH ? `${summary.slice(0, INPUT_LENGTH)}…` : summary;
}
