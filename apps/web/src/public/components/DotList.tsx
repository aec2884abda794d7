/** A short list of points, each after a dot (.dot-list). */
export function DotList({ points }: { points: readonly string[] }) {
  return (
    <ul className="dot-list">
      {points.map((point) => (
        <li key={point}>{point}</li>
      ))}
    </ul>
  );
}
