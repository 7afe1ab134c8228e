export function ExperimentsPage() {
  return <h1>ExperimentsPage</h1>;
}
