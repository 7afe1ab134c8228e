import { z } from "zod";

/**
 * The schema of a stored node kind: a strict object whose first field is its versioned `type`
 * (`thread-step/1`), then the kind's own fields.
 */
export function nodeSchema<const Type extends string, Shape extends z.ZodRawShape>(type: Type, shape: Shape) {
  return z.object({ type: z.literal(type), ...shape }).strict();
}
