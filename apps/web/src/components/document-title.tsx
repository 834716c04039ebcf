/** Sets the tab title for the screen; React 19 hoists <title> into the document head. */
export function DocumentTitle({ title }: { title: string }) {
  return <title>{`${title} · Porpoise`}</title>;
}
