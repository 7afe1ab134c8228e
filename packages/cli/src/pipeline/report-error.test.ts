import { describe, expect, it, spyOn } from "bun:test";
import { RefStoreBusyError } from "@uwf/cas";
import { errorResultSchema, InternalError } from "@uwf/protocol";
import { cutMessage, MAX_ERROR_MESSAGE_LENGTH } from "../describe-error.ts";
import { StdoutClosedError } from "../errors/stdout-closed-error.ts";
import { EXIT_BUSY, EXIT_FAILED, EXIT_STDOUT_CLOSED } from "../exit-codes.ts";
import { reportError } from "./report-error.ts";

describe("cutMessage", () => {
  it("leaves a message within the limit as it is", () => {
    const message = "m".repeat(MAX_ERROR_MESSAGE_LENGTH);
    expect(cutMessage(message)).toBe(message);
  });

  it("cuts a longer message to the limit and says how much was cut", () => {
    const cut = cutMessage("m".repeat(MAX_ERROR_MESSAGE_LENGTH + 500));
    expect(cut).toBe(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH)}… (500 more characters cut)`);
  });

  it("never splits a character made of two UTF-16 units", () => {
    const cut = cutMessage(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH - 1)}😀${"m".repeat(10)}`);
    expect(cut).toBe(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH - 1)}… (12 more characters cut)`);
  });
});

/** What reportError writes to stderr, and the exit code it returns. */
function report(error: unknown, json: boolean): { exitCode: number; stderr: string } {
  let stderr = "";
  const spy = spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { exitCode: reportError(error, json), stderr };
  } finally {
    spy.mockRestore();
  }
}

function systemError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, syscall, path, errno: -1 });
}

describe("reportError", () => {
  it("reports a full disk, a read-only mount or missing permissions as one line, exit 1, no stack", () => {
    for (const [code, expected] of [
      ["ENOSPC", "no space left on device"],
      ["EROFS", "read-only file system"],
      ["EACCES", "permission denied"],
    ] as const) {
      const { exitCode, stderr } = report(systemError(code, "open", "/h/objects/AB/x.tmp"), false);
      expect(exitCode).toBe(EXIT_FAILED);
      expect(stderr).toBe(`uwf: cannot open /h/objects/AB/x.tmp: ${expected} (${code})\n`);
    }
  });

  it("gives the environment error's code under --json", () => {
    const { exitCode, stderr } = report(systemError("ENOSPC", "write", "/h/objects/AB/x.tmp"), true);
    expect(exitCode).toBe(EXIT_FAILED);
    const parsed = errorResultSchema.parse(JSON.parse(stderr));
    expect(parsed.error.code).toBe("no-space");
    expect(parsed.error.data).toEqual({ path: "/h/objects/AB/x.tmp", systemCode: "ENOSPC", syscall: "write" });
  });

  it("exits 75 for a ref store whose write lock another process holds", () => {
    const busy = new RefStoreBusyError("/h/refs.db", "database is locked");
    expect(report(busy, false)).toEqual({
      exitCode: EXIT_BUSY,
      stderr: `uwf: ${busy.message}\n`,
    });
  });

  it("prints nothing for a closed stdout and exits 141, as a process SIGPIPE kills", () => {
    expect(report(new StdoutClosedError(systemError("EPIPE", "write", "")), false)).toEqual({
      exitCode: EXIT_STDOUT_CLOSED,
      stderr: "",
    });
    expect(report(new StdoutClosedError(null), true)).toEqual({ exitCode: 141, stderr: "" });
  });

  it("still reports any other error as internal, asking for a report", () => {
    const { exitCode, stderr } = report(new TypeError("x is undefined"), false);
    expect(exitCode).toBe(EXIT_FAILED);
    expect(stderr).toStartWith("uwf: internal error (please report): TypeError: x is undefined");
  });

  it("reports an InternalError, a fault of uwf itself, as any error it did not expect: internal, with its stack", () => {
    const fault = new InternalError("a store was asked for a file that is not its own");
    const text = report(fault, false);
    expect(text.exitCode).toBe(EXIT_FAILED);
    expect(text.stderr).toStartWith(
      "uwf: internal error (please report): InternalError: a store was asked for a file that is not its own\n    at ",
    );
    const json = report(fault, true);
    expect(json.exitCode).toBe(EXIT_FAILED);
    expect(errorResultSchema.parse(JSON.parse(json.stderr))).toEqual({
      error: { code: "internal", message: String(fault), data: {} },
    });
    expect(report(new Error("plain"), true).stderr).toBe(
      `${JSON.stringify({ error: { code: "internal", message: "Error: plain", data: {} } })}\n`,
    );
  });
});
