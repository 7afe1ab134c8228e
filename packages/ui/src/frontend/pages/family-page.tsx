export function FamilyPage(props: { id: string }) {
  return <h1>FamilyPage</h1>;
}
