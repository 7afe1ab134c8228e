/** A Buffer or other byte view a client returned, as a plain Uint8Array over the same memory. */
export function asUint8Array(bytes: Uint8Array): Uint8Array {
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
