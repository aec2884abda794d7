/** Placeholder for a screen whose work has not landed yet: says so plainly, nothing more. */
export function NotBuiltYet({ title, purpose }: { title: string; purpose: string }) {
  return (
    <section className="not-built" aria-labelledby="not-built-title">
      <h1 id="not-built-title">{title}</h1>
      <p>{purpose}</p>
      <p className="not-built__note">This screen is not built yet.</p>
    </section>
  );
}
