// Three well-formed addresses (of `{}`, `"hello"` and a small object: DESIGN §3's test vectors) for records
// that name nodes the store need not hold.
export const HEAD_A = "2W53JPNXF556H";
export const HEAD_B = "B1XRH20GCX3FB";
export const HEAD_C = "191B06QRP5RG9";
