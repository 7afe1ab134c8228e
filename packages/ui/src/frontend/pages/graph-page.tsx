export function ThreadGraphPage(props: { id: string }) {
  return <h1>Graph of {props.id}</h1>;
}

export function WorkflowGraphPage(props: { reference: string }) {
  return <h1>Workflow {props.reference}</h1>;
}
