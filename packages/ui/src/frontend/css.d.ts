/** Stylesheets imported by page modules (`import "./threads.css"`): Bun bundles them with the page. */
declare module "*.css";
