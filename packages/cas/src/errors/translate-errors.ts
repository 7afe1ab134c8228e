/**
 * The same methods, each passing what it throws through `translate` (async generator methods are
 * wrapped as generators): how a backend reports its driver's errors as uwf's, wherever they are met.
 */
export function translateErrors<Methods extends object>(
  methods: Methods,
  translate: (error: unknown) => unknown,
): Methods {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
    if (typeof method !== "function") wrapped[name] = method;
    else if (method.constructor.name === "AsyncGeneratorFunction") {
      wrapped[name] = async function* (...args: unknown[]) {
        try {
          yield* method(...args);
        } catch (error) {
          throw translate(error);
        }
      };
    } else {
      wrapped[name] = async (...args: unknown[]) => {
        try {
          return await method(...args);
        } catch (error) {
          throw translate(error);
        }
      };
    }
  }
  return wrapped as Methods;
}
