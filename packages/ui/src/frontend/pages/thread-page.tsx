export function ThreadPage(props: { id: string }) {
  return <h1>ThreadPage</h1>;
}
