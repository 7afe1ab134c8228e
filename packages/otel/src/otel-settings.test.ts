import { describe, expect, it } from "bun:test";
import { parseHeaders, readOtelSettings } from "./otel-settings.ts";

describe("readOtelSettings", () => {
  it("is null without an endpoint, or with OTEL_SDK_DISABLED=true", () => {
    expect(readOtelSettings({})).toBeNull();
    expect(readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeNull();
    expect(readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "TRUE" })).toBeNull();
  });

  it("adds /v1/traces to the general endpoint and takes the traces endpoint as it is", () => {
    expect(readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })?.url).toBe("http://c:4318/v1/traces");
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/x" };
    expect(readOtelSettings(both)?.url).toBe("http://t/x");
    expect(readOtelSettings({}, "http://given:4318/v1/traces")?.url).toBe("http://given:4318/v1/traces");
  });

  it("defaults to OTLP/JSON, service uwf and no contents", () => {
    expect(readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" })).toEqual({
      url: "http://c/v1/traces",
      protocol: "http/json",
      headers: {},
      serviceName: "uwf",
      captureContent: false,
    });
  });

  it("reads the protocol, service name, headers and the content opt-in", () => {
    const settings = readOtelSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_SERVICE_NAME: "reviews",
      OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=two%20words",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=3",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    });
    expect(settings).toMatchObject({
      protocol: "http/protobuf",
      serviceName: "reviews",
      headers: { a: "1", b: "3" },
      captureContent: true,
    });
  });
});

describe("parseHeaders", () => {
  it("URL-decodes keys and values and skips malformed parts", () => {
    expect(parseHeaders("authorization=Bearer%20x, =nokey,novalue,bad=%E0%A4%A")).toEqual({
      authorization: "Bearer x",
    });
  });
});
