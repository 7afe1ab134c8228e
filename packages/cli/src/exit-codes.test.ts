import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ErrorCode } from "@uwf/protocol";
import {
  EXIT_BUSY,
  EXIT_CODE_BY_ERROR_CODE,
  EXIT_ENDED,
  EXIT_FAILED,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_SUSPENDED,
  type ExitCodeByErrorCode,
  exitCodeForError,
  mostSevereExitCode,
} from "./exit-codes.ts";

// `bun run typecheck` checks the lines below: each must fail to compile, or the typecheck fails.
const _misspelt: ExitCodeByErrorCode = {
  ...EXIT_CODE_BY_ERROR_CODE,
  // @ts-expect-error "thread-bussy" is not an ErrorCode.
  "thread-bussy": EXIT_BUSY,
};
const _undocumented: ExitCodeByErrorCode = {
  ...EXIT_CODE_BY_ERROR_CODE,
  // @ts-expect-error 76 is not one of the documented exit codes.
  "thread-busy": 76,
};
const { "thread-busy": _left, ...withoutThreadBusy } = EXIT_CODE_BY_ERROR_CODE;
// @ts-expect-error every code needs its exit code: "thread-busy" is missing.
const _incomplete: ExitCodeByErrorCode = withoutThreadBusy;
// @ts-expect-error "thread-bussy" is not an ErrorCode.
const _lookedUp = () => exitCodeForError("thread-bussy");

const DOCS = join(import.meta.dir, "..", "..", "..", "docs", "cli.md");

/** The rows of the error code table in docs/cli.md: `| \`code\` | exit | when |`. */
function documentedErrorCodes(): Map<string, number> {
  const text = readFileSync(DOCS, "utf8");
  const start = text.indexOf("### Error codes");
  // The section ends where the next one starts: other tables (a batch's outcomes) look alike.
  const section = text.slice(start, text.indexOf("\n## ", start));
  const rows = new Map<string, number>();
  for (const match of section.matchAll(/^\| `([a-z-]+)` +\| (\d+) +\|/gm)) {
    rows.set(match[1] ?? "", Number(match[2]));
  }
  return rows;
}

describe("EXIT_CODE_BY_ERROR_CODE", () => {
  it("gives every error code the exit code docs/cli.md gives it, and docs/cli.md lists every code", () => {
    const documented = documentedErrorCodes();
    const codes = Object.keys(EXIT_CODE_BY_ERROR_CODE) as ErrorCode[];
    expect([...documented.keys()].sort()).toEqual([...codes].sort());
    for (const code of codes)
      expect({ code, exit: documented.get(code) }).toEqual({ code, exit: exitCodeForError(code) });
  });

  it("exits 1, never 0, for a code the types rule out", () => {
    expect(exitCodeForError("no-such-code" as ErrorCode)).toBe(EXIT_FAILED);
  });
});

describe("mostSevereExitCode", () => {
  it("picks by the documented order: interrupted, failed, busy, suspended, ended, done", () => {
    expect(mostSevereExitCode([])).toBe(EXIT_OK);
    expect(mostSevereExitCode([EXIT_OK, EXIT_ENDED, EXIT_OK])).toBe(EXIT_ENDED);
    expect(mostSevereExitCode([EXIT_ENDED, EXIT_SUSPENDED])).toBe(EXIT_SUSPENDED);
    expect(mostSevereExitCode([EXIT_SUSPENDED, EXIT_BUSY, EXIT_OK])).toBe(EXIT_BUSY);
    expect(mostSevereExitCode([EXIT_BUSY, EXIT_FAILED])).toBe(EXIT_FAILED);
    expect(mostSevereExitCode([EXIT_FAILED, EXIT_INTERRUPTED, EXIT_SUSPENDED])).toBe(EXIT_INTERRUPTED);
  });

  it("counts a code it does not know as failed", () => {
    expect(mostSevereExitCode([EXIT_BUSY, 42])).toBe(EXIT_FAILED);
  });
});
