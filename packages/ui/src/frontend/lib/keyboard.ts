import { useEffect } from "preact/hooks";

/** The rows j and k move through: a table row of the page's main part that links somewhere. */
const ROWS = "main tbody tr";
const SELECTED = "key-selected";

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function linkedRows(): { row: HTMLElement; link: HTMLAnchorElement }[] {
  const rows: { row: HTMLElement; link: HTMLAnchorElement }[] = [];
  for (const row of document.querySelectorAll<HTMLElement>(ROWS)) {
    const link = row.querySelector<HTMLAnchorElement>("a[href]");
    if (link !== null && row.offsetParent !== null) rows.push({ row, link });
  }
  return rows;
}

/**
 * The page's keys, as mail readers and code hosts have them: `j` and `k` move to the next and the previous
 * row of the page's list (focusing its first link, so Enter opens it), `/` focuses the page's search box
 * when it has one, and Escape leaves it. Keys typed into a form are left alone, as are those with a
 * modifier.
 */
export function useKeyboardNavigation(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingIn(event.target)) {
        if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      if (event.key === "/") {
        const search = document.querySelector<HTMLInputElement>('input[type="search"]');
        if (search === null) return;
        event.preventDefault();
        search.focus();
        search.select();
        return;
      }
      if (event.key !== "j" && event.key !== "k") return;
      const rows = linkedRows();
      if (rows.length === 0) return;
      event.preventDefault();
      const current = rows.findIndex(
        ({ row }) => row.classList.contains(SELECTED) || row.contains(document.activeElement),
      );
      const next = current === -1 ? 0 : Math.max(0, Math.min(rows.length - 1, current + (event.key === "j" ? 1 : -1)));
      for (const { row } of rows) row.classList.remove(SELECTED);
      const target = rows[next];
      if (target === undefined) return;
      target.row.classList.add(SELECTED);
      target.link.focus();
      target.row.scrollIntoView({ block: "nearest" });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
