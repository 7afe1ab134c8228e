import type { ComponentChildren } from "preact";
import { ErrorBox } from "./error-box.tsx";
import type { ApiState } from "./use-api.ts";
import { Loading } from "./view-common.tsx";

/**
 * What a fetch shows: its error (above the data of the last good answer, if any), the loading line until a
 * first answer comes, then what `children` draws from the data.
 */
export function ApiResult<T>(props: { state: ApiState<T>; children(data: T): ComponentChildren }) {
  const { data, error } = props.state;
  return (
    <>
      {error !== null ? <ErrorBox error={error} /> : null}
      {data === null ? error === null ? <Loading /> : null : props.children(data)}
    </>
  );
}
