const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * Thread ids for generated stores: ULIDs (26 Crockford base32 characters, 48-bit time first),
 * so a generated thread sorts by its creation time exactly as one made by `uwf start` does.
 */
export function ulidAt(time: number, random: () => number = Math.random): string {
  let id = "";
  let rest = Math.floor(time);
  for (let index = 0; index < 10; index++) {
    id = CROCKFORD[rest % 32] + id;
    rest = Math.floor(rest / 32);
  }
  for (let index = 0; index < 16; index++) id += CROCKFORD[Math.floor(random() * 32)];
  return id;
}
