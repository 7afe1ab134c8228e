export { type InvalidAssertionDetails, InvalidAssertionError } from "./invalid-assertion-error.ts";
