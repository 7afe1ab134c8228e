/** Bun bundles a CSS import into the page's stylesheet: a module imports its own styles for their side effect. */
declare module "*.css";
