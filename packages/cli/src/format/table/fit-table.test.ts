import { describe, expect, it } from "bun:test";
import { type FitColumn, fitTable } from "./fit-table.ts";
import { formatTable } from "./format-table.ts";

const columns: FitColumn[] = [
  { header: "ID", cells: ["aaaaaaaaaa", "bbbbbbbbbb"] },
  { header: "NAME", cells: ["a-long-name", "short"], truncate: { at: 3, minWidth: 5 } },
  {
    header: "WHEN",
    cells: ["2026-11-26 15:29:01", "2026-11-25 09:00:00"],
    compact: { at: 1, cells: ["15:29", "09:00"] },
    dropAt: 2,
  },
  { header: "EXTRA", cells: ["x", "y"], dropAt: 4 },
];
const widest = (table: string) => Math.max(...table.split("\n").map((line) => [...line].length));
const headers = (table: string) => table.split("\n")[0]?.split(/\s{2,}/);

describe("fitTable", () => {
  it("is formatTable's table when there is no width to fit", () => {
    expect(fitTable(columns, undefined)).toBe(
      formatTable(
        ["ID", "NAME", "WHEN", "EXTRA"],
        [
          ["aaaaaaaaaa", "a-long-name", "2026-11-26 15:29:01", "x"],
          ["bbbbbbbbbb", "short", "2026-11-25 09:00:00", "y"],
        ],
      ),
    );
    expect(widest(fitTable(columns, undefined))).toBe(51);
  });

  it("gives up what the ranks say, in their order, until the rows fit", () => {
    expect(fitTable(columns, 51)).toBe(fitTable(columns, undefined));
    // Rank 1: WHEN said shorter.
    const compact = fitTable(columns, 40);
    expect(headers(compact)).toEqual(["ID", "NAME", "WHEN", "EXTRA"]);
    expect(compact).toContain("15:29");
    expect(widest(compact)).toBeLessThanOrEqual(40);
    // Rank 2: WHEN left out; rank 3: NAME cut only as far as needed.
    expect(headers(fitTable(columns, 30))).toEqual(["ID", "NAME", "EXTRA"]);
    const cut = fitTable(columns, 25);
    expect(cut.split("\n")[1]).toBe("aaaaaaaaaa  a-lon…  x");
    expect(widest(cut)).toBeLessThanOrEqual(25);
    // Rank 4: EXTRA left out, and NAME whole again since it now fits.
    expect(fitTable(columns, 23).split("\n")[1]).toBe("aaaaaaaaaa  a-long-name");
  });

  it("keeps the columns that may not go, as narrow as allowed, when nothing fits", () => {
    const table = fitTable(columns, 5);
    expect(headers(table)).toEqual(["ID", "NAME"]);
    expect(table.split("\n")[1]).toBe("aaaaaaaaaa  a-lo…");
  });

  it("drops colour from a cell it cuts and counts colour codes as nothing", () => {
    const coloured: FitColumn[] = [
      { header: "S", cells: ["\u001b[32mactive-and-more\u001b[39m"], truncate: { at: 1, minWidth: 4 } },
    ];
    expect(fitTable(coloured, 15)).toBe("S\n\u001b[32mactive-and-more\u001b[39m");
    expect(fitTable(coloured, 7)).toBe("S\nactive…");
  });
});
