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

  it("defaults to OTLP/protobuf, service uwf and no contents", () => {
    expect(readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" })).toEqual({
      url: "http://c/v1/traces",
      protocol: "http/protobuf",
      headers: {},
      serviceName: "uwf",
      captureContent: false,
    });
  });

  it("reads the protocol, service name, headers and the content opt-in", () => {
    const settings = readOtelSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "reviews",
      OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=two%20words",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=3",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    });
    expect(settings).toMatchObject({
      protocol: "http/json",
      serviceName: "reviews",
      headers: { a: "1", b: "3" },
      captureContent: true,
    });
  });

  it("takes the traces protocol over the general one, and any value but http/json as protobuf", () => {
    const protocol = (env: NodeJS.ProcessEnv) =>
      readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", ...env })?.protocol;
    expect(
      protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }),
    ).toBe("http/json");
    expect(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: " " })).toBe(
      "http/json",
    );
    expect(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe("http/protobuf");
  });
});

describe("parseHeaders", () => {
  it("URL-decodes keys and values and skips malformed parts", () => {
    expect(parseHeaders("authorization=Bearer%20x, =nokey,novalue,bad=%E0%A4%A")).toEqual({
      authorization: "Bearer x",
    });
  });
});
