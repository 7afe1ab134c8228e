export function DiffPage(props: { left: string; right: string }) {
  return (
    <h1>
      Diff {props.left} {props.right}
    </h1>
  );
}
