import { describe, expect, it } from "bun:test";
import * as entry from "./index.ts";

describe("the @uwf/cli entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(entry).sort()).toEqual(["runCli"]);
  });
});
