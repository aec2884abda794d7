/** One line of a document's figures (in a `dl.figures`): a label and an amount; a total stands out. */
export function FigureRow({ label, value, total, testId }: { label: string; value: string; total?: boolean; testId?: string }) {
  return (
    <div className={total ? 'figures__row figures__row--total' : 'figures__row'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
