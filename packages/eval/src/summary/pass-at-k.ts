/**
 * The unbiased estimate of pass@k from `total` samples of which `passed` passed: the chance that at least
 * one of k samples drawn without replacement passes, 1 − C(total − passed, k) / C(total, k) (Chen et al.,
 * 2021). Computed as a product, so large counts do not overflow. `k` must be in 1 … total.
 */
export function passAtK(total: number, passed: number, k: number): number {
  checkK(total, passed, k);
  if (total - passed < k) return 1;
  let allFail = 1;
  for (let index = 0; index < k; index++) allFail *= (total - passed - index) / (total - index);
  return 1 - allFail;
}

/**
 * The unbiased estimate of pass^k: the chance that all of k samples drawn without replacement pass,
 * C(passed, k) / C(total, k). `k` must be in 1 … total.
 */
export function passHatK(total: number, passed: number, k: number): number {
  checkK(total, passed, k);
  if (passed < k) return 0;
  let allPass = 1;
  for (let index = 0; index < k; index++) allPass *= (passed - index) / (total - index);
  return allPass;
}

/** pass@k and pass^k for every k from 1 to `total`; empty with no samples. */
export function passAtKTable(total: number, passed: number): { k: number; passAtK: number; passHatK: number }[] {
  return Array.from({ length: total }, (_, index) => ({
    k: index + 1,
    passAtK: passAtK(total, passed, index + 1),
    passHatK: passHatK(total, passed, index + 1),
  }));
}

function checkK(total: number, passed: number, k: number): void {
  if (!Number.isInteger(k) || k < 1 || k > total)
    throw new RangeError(`k must be a whole number in 1 … ${total}, not ${k}`);
  if (!Number.isInteger(passed) || passed < 0 || passed > total)
    throw new RangeError(`passed must be a whole number in 0 … ${total}, not ${passed}`);
}
