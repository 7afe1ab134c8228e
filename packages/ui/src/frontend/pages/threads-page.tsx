export function ThreadsPage() {
  return <h1>ThreadsPage</h1>;
}
