import { describe, expect, it } from "bun:test";
import { asEnvironmentError } from "./environment-error.ts";

/** A node:fs error as the runtime throws it. */
function systemError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, ${syscall}`), { code, syscall, errno: -1, path });
}

describe("asEnvironmentError", () => {
  it("names the file and the reason of a full disk, a read-only mount and missing permissions", () => {
    const full = asEnvironmentError(systemError("ENOSPC", "write", "/h/objects/AB/x.tmp"));
    expect(full?.code).toBe("no-space");
    expect(full?.message).toBe("cannot write /h/objects/AB/x.tmp: no space left on device (ENOSPC)");
    expect(full?.data).toEqual({ path: "/h/objects/AB/x.tmp", systemCode: "ENOSPC", syscall: "write" });
    const readOnly = asEnvironmentError(systemError("EROFS", "mkdir", "/h/objects/AB"));
    expect(readOnly?.code).toBe("read-only-file-system");
    expect(readOnly?.message).toBe("cannot write /h/objects/AB: read-only file system (EROFS)");
    const denied = asEnvironmentError(systemError("EACCES", "open", "/h/config.yaml"));
    expect(denied?.code).toBe("permission-denied");
    expect(denied?.message).toBe("cannot open /h/config.yaml: permission denied (EACCES)");
    expect(asEnvironmentError(systemError("EDQUOT", "write"))?.message).toBe(
      "cannot write: disk quota exceeded (EDQUOT)",
    );
    expect(asEnvironmentError(systemError("EIO", "read", "/h/refs.db"))?.code).toBe("io-error");
    expect(asEnvironmentError(systemError("EMFILE", "open", "/h/x"))?.code).toBe("too-many-open-files");
  });

  it("says a program could not be run when starting it was refused", () => {
    expect(asEnvironmentError(systemError("EACCES", "posix_spawn", "/bin/agent"))?.message).toBe(
      "cannot run /bin/agent: permission denied (EACCES)",
    );
    expect(asEnvironmentError(systemError("EACCES", "spawn /bin/agent", "/bin/agent"))?.message).toBe(
      "cannot run /bin/agent: permission denied (EACCES)",
    );
  });

  it("starts the message with what could not be done, when told", () => {
    const error = asEnvironmentError(systemError("EROFS", "open", "/h/objects/AB/x.tmp"), "no agent was started");
    expect(error?.message).toBe("no agent was started: cannot open /h/objects/AB/x.tmp: read-only file system (EROFS)");
  });

  it("keeps the system's error as the cause", () => {
    const cause = systemError("ENOSPC", "write", "/h/x");
    expect(asEnvironmentError(cause)?.cause).toBe(cause);
  });

  it("leaves every other error alone: a missing file, a bug, a value that is no error", () => {
    expect(asEnvironmentError(systemError("ENOENT", "open", "/h/x"))).toBeNull();
    expect(asEnvironmentError(new TypeError("x is undefined"))).toBeNull();
    expect(asEnvironmentError({ code: "ENOSPC" })).toBeNull();
    expect(asEnvironmentError("ENOSPC")).toBeNull();
  });
});
