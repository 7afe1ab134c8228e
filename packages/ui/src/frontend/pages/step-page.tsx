export function StepPage(props: { address: string }) {
  return <h1>StepPage</h1>;
}
