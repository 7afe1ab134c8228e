import { describe, expect, it } from "bun:test";
import * as entry from "./index.ts";

describe("the @uwf/otel entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(entry).sort()).toEqual([
      "EXIT_FLUSH_DEADLINE_MS",
      "EXPORT_TIMEOUT_MS",
      "collectThreadSpans",
      "parseHeaders",
      "readCaptureContent",
      "readOtelSettings",
      "sendSpans",
      "spanIdFor",
      "startLiveExport",
      "traceIdFor",
    ]);
  });
});
