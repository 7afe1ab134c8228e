/** The HTML report's stylesheet: system fonts, light and dark from the reader's setting, tables that scroll. */
export const EVAL_PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --text: #1f2328; --muted: #59636e; --grid: #d8dee4; --panel: #f6f8fa;
  --passed: #1a7f37; --failed: #cf222e; --errored: #9a6700; --accent: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --text: #e6edf3; --muted: #9198a1; --grid: #30363d; --panel: #161b22;
    --passed: #3fb950; --failed: #f85149; --errored: #d29922; --accent: #4493f8;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0 auto; max-width: 1200px; padding: 24px 20px 64px;
  background: var(--bg); color: var(--text);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
}
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--grid); }
h3 { font-size: 15px; margin: 20px 0 6px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
code.thread { user-select: all; }
.meta { color: var(--muted); margin: 0; }
.meta dt { display: inline; font-weight: 600; }
.meta dd { display: inline; margin: 0 16px 0 4px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 12px; border: 1px solid currentColor; }
.passed, .held { color: var(--passed); }
.failed, .not-held { color: var(--failed); }
.errored { color: var(--errored); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
th, td { text-align: left; padding: 4px 10px; border-bottom: 1px solid var(--grid); vertical-align: top; }
thead th { background: var(--panel); white-space: nowrap; }
th { font-weight: 600; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.note { color: var(--muted); font-size: 13px; }
#charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 16px; margin-top: 8px; }
#charts[hidden] { display: none; }
figure.chart { margin: 0; padding: 12px; background: var(--panel); border: 1px solid var(--grid); border-radius: 8px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 8px; }
.chart-box { position: relative; width: 100%; }
ul.scores { list-style: none; margin: 0; padding: 0; min-width: 280px; }
ul.scores li { margin: 0 0 2px; }
`;
