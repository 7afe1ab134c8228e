import { ApiError } from "../lib/api.ts";

/** An error as the CLI would report it: its code and its message. */
export function ErrorBox(props: { error: unknown }) {
  const { error } = props;
  if (error instanceof ApiError) {
    return (
      <div class="error" role="alert">
        <code class="error-code">{error.error.code}</code> {error.error.message}
      </div>
    );
  }
  return (
    <div class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </div>
  );
}
