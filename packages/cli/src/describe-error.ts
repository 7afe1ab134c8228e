import { asEnvironmentError } from "@uwf/engine";
import { InternalError, isUwfError, type UwfErrorJson } from "@uwf/protocol";
import { messageWithHint } from "./hint-for.ts";

/**
 * The longest error message printed, in characters. A message quotes what it is about (a path,
 * a value, an agent's stderr), and bad input can make that as long as the input itself; past this
 * it is cut, with a note of how much. `data` under `--json` is left whole.
 */
export const MAX_ERROR_MESSAGE_LENGTH = 2000;

/** An error as `--json` reports it: `{ code, message, data }`, the message with its hint and cut; `internal` for one uwf did not raise on purpose, or an InternalError. */
export function describeError(thrown: unknown): UwfErrorJson {
  const error = asEnvironmentError(thrown) ?? thrown;
  if (!isUwfError(error) || error.code === InternalError.code)
    return { code: "internal", message: cutMessage(String(error)), data: {} };
  return { ...error.toJSON(), message: cutMessage(messageWithHint(error)) };
}

/** A message within MAX_ERROR_MESSAGE_LENGTH characters, with a note of what was cut. */
export function cutMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_LENGTH) return message;
  let end = MAX_ERROR_MESSAGE_LENGTH;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(message.charAt(end - 1))) end--;
  return `${message.slice(0, end)}… (${message.length - end} more characters cut)`;
}
