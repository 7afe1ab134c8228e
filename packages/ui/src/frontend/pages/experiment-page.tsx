export function ExperimentPage(props: { id: string }) {
  return <h1>ExperimentPage</h1>;
}
