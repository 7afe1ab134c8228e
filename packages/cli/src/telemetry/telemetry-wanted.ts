/**
 * Whether this process exports OpenTelemetry spans: an OTLP endpoint is set and the SDK is not
 * disabled. Decided from the environment alone, so a command without the variables never loads
 * @uwf/otel or the OpenTelemetry packages (start-up time is every step's cost).
 */
export function telemetryWanted(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  return [env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, env.OTEL_EXPORTER_OTLP_ENDPOINT].some(
    (value) => (value ?? "").trim() !== "",
  );
}
