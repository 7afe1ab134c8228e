// Files the HTML report inlines, imported as text (`with { type: "text" }`); Bun embeds them in the compiled binary.

/** Chart.js's minified UMD build. */
declare module "*/chart.umd.min.js" {
  const code: string;
  export default code;
}

/** A script written for the browser, inlined into a page. */
declare module "*.client.js" {
  const code: string;
  export default code;
}
