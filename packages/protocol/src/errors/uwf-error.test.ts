import { describe, expect, it } from "bun:test";
import { InternalError } from "./internal-error.ts";
import { isUwfError, UwfError } from "./uwf-error.ts";

class SampleMissingError extends UwfError<"thread-not-found"> {
  static override readonly code = "thread-not-found" as const;
  static override readonly name = "SampleMissingError";

  constructor(threadId: string, cause?: unknown) {
    super(`thread ${threadId} is missing`, { data: { thread: threadId, candidates: [] }, cause });
  }
}

// `bun run typecheck` checks the lines below: each must fail to compile, or the typecheck fails.
// @ts-expect-error "thread-bussy" is not an ErrorCode.
class MisspeltCodeError extends UwfError {
  static override readonly code = "thread-bussy" as const;

  constructor() {
    super("a misspelt code", { data: {} });
  }
}

class InlineMisspeltCodeError extends UwfError {
  constructor() {
    // @ts-expect-error "thread-bussy" is not an ErrorCode.
    super("a misspelt code", { code: "thread-bussy", data: {} });
  }
}

class WrongDataError extends UwfError<"node-not-found"> {
  static override readonly code = "node-not-found" as const;

  constructor() {
    // @ts-expect-error a node-not-found error's data names its `address`.
    super("wrong data", { data: { node: "X" } });
  }
}

function constructBaseClass(): UwfError {
  // @ts-expect-error UwfError is abstract: every error is a named class that declares its code.
  return new UwfError("an anonymous error", { code: "usage", data: {} });
}

describe("UwfError", () => {
  it("carries its class's code, its data and its cause, and prints them as JSON", () => {
    const cause = new Error("lock held");
    const error = new SampleMissingError("T1", cause);
    expect(error.code).toBe("thread-not-found");
    expect(error.name).toBe("SampleMissingError");
    expect(isUwfError(error)).toBe(true);
    expect(error.toJSON()).toEqual({
      code: "thread-not-found",
      message: "thread T1 is missing",
      data: { thread: "T1", candidates: [] },
    });
    expect(JSON.stringify(error)).toBe(JSON.stringify(error.toJSON()));
    expect(error.cause).toBe(cause);
    expect(new SampleMissingError("T1").cause).toBeUndefined();
  });

  it("takes any code at run time, so the typecheck of the classes above is what stops a misspelt one", () => {
    expect(new MisspeltCodeError().code as string).toBe("thread-bussy");
    expect(new InlineMisspeltCodeError().code as string).toBe("thread-bussy");
    expect(new WrongDataError().data).toEqual({ node: "X" } as never);
    expect(constructBaseClass()).toBeInstanceOf(UwfError);
    expect(isUwfError(new Error("plain"))).toBe(false);
  });

  it("is told by the brand on its prototype, so an error of another copy of the package is one too", () => {
    const error = new SampleMissingError("T1");
    expect(UwfError.isInstance(error)).toBe(true);
    expect(UwfError.isInstance(new Error("plain"))).toBe(false);
    expect(UwfError.isInstance({ ...error.toJSON(), name: error.name })).toBe(false);
    expect(UwfError.isInstance(null)).toBe(false);
    expect(UwfError.isInstance("thread-not-found")).toBe(false);
    // A class of another copy: a base of its own, which carries the same global brand.
    const otherCopy = Object.create(Object.create(Error.prototype, { [Symbol.for("uwf.error")]: { value: true } }));
    expect(otherCopy instanceof UwfError).toBe(false);
    expect(UwfError.isInstance(otherCopy)).toBe(true);
  });

  it("reports a fault of uwf itself as an InternalError, code `internal`", () => {
    const cause = new Error("underneath");
    const error = new InternalError("a store was asked for a file that is not its own", { cause });
    expect(error.name).toBe("InternalError");
    expect(error.toJSON()).toEqual({
      code: "internal",
      message: "a store was asked for a file that is not its own",
      data: {},
    });
    expect(error.cause).toBe(cause);
    expect(UwfError.isInstance(error)).toBe(true);
  });
});
