import { UwfError } from "@uwf/protocol";

/**
 * The ref store's database cannot be read (truncated, overwritten, not a database). Nothing is
 * changed: `uwf cas recover` moves the file aside, keeping it, and rebuilds the thread records and
 * the registry from the object store.
 */
export class RefStoreDamagedError extends UwfError<"ref-store-damaged"> {
  static override readonly code = "ref-store-damaged" as const;
  static override readonly name = "RefStoreDamagedError";

  constructor(path: string, detail: string, cause?: unknown) {
    super(
      `the ref store ${path} is damaged (${detail}): \`uwf cas recover\` moves it aside, keeping it, and rebuilds the thread records from the object store`,
      { data: { path, detail }, cause },
    );
  }
}
