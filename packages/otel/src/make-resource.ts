import { type Resource, resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";

/** The resource every uwf span is sent with: the service (`OTEL_SERVICE_NAME`, default `uwf`). */
export function makeResource(serviceName: string): Resource {
  return resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName });
}
