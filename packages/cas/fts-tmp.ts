import { copyFileSync } from "node:fs";
import { createSqliteRefStore } from "./src/sqlite/create-sqlite-ref-store.ts";

copyFileSync("/tmp/stepwork/home-cur/refs.db", "/tmp/stepwork/fts-copy2.db");
const refs = createSqliteRefStore("/tmp/stepwork/fts-copy2.db");
const thread = "01M99GAZE8ZY16HGHK8QR9YPQD";
await refs.indexThreadText(thread, [Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" ")]);
for (let round = 0; round < 3; round++) {
  const t = performance.now();
  for (let i = 0; i < 50; i++) await refs.indexThreadText(thread, [`summary ${round} ${i} more${round}x${i}`]);
  console.log(
    "per call ms",
    ((performance.now() - t) / 50).toFixed(3),
    (await refs.listThreadWords(thread)).length,
    "words",
  );
}
await refs.close();
