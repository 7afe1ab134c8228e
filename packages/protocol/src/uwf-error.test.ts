import { describe, expect, it } from "bun:test";
import { isUwfError, UwfError } from "./uwf-error.ts";

class SampleBusyError extends UwfError {
  static readonly code = "thread-busy" as const;

  constructor(threadId: string, cause?: unknown) {
    super(SampleBusyError.code, `thread ${threadId} is busy`, { data: { thread: threadId }, cause });
    this.name = "SampleBusyError";
  }
}

// `bun run typecheck` checks the lines below: each must fail to compile, or the typecheck fails.
class MisspeltCodeError extends UwfError {
  static readonly code = "thread-bussy" as const;

  constructor() {
    // @ts-expect-error "thread-bussy" is not an ErrorCode.
    super(MisspeltCodeError.code, "a misspelt code");
  }
}

class InlineMisspeltCodeError extends UwfError {
  constructor() {
    // @ts-expect-error "thread-bussy" is not an ErrorCode.
    super("thread-bussy", "a misspelt code");
  }
}

function constructBaseClass(): UwfError {
  // @ts-expect-error UwfError is abstract: every error is a named class that declares its code.
  return new UwfError("usage", "an anonymous error");
}

describe("UwfError", () => {
  it("carries its class's code, its data and its cause, and prints them as JSON", () => {
    const cause = new Error("lock held");
    const error = new SampleBusyError("T1", cause);
    expect(error.code).toBe("thread-busy");
    expect(isUwfError(error)).toBe(true);
    expect(error.toJSON()).toEqual({ code: "thread-busy", message: "thread T1 is busy", data: { thread: "T1" } });
    expect(JSON.stringify(error)).toBe(JSON.stringify(error.toJSON()));
    expect(error.cause).toBe(cause);
    expect(new SampleBusyError("T1").cause).toBeUndefined();
  });

  it("takes any code at run time, so the typecheck of the classes above is what stops a misspelt one", () => {
    expect(new MisspeltCodeError().code as string).toBe("thread-bussy");
    expect(new InlineMisspeltCodeError().code as string).toBe("thread-bussy");
    expect(constructBaseClass()).toBeInstanceOf(UwfError);
    expect(isUwfError(new Error("plain"))).toBe(false);
  });
});
