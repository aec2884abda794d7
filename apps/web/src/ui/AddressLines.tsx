/** An address one line a line, as it was typed ('\n' between its lines): never run together. */
export function AddressLines({ address }: { address: string }) {
  const lines = address.split('\n').filter((l) => l.trim() !== '');
  return (
    <>
      {lines.map((l, i) => (
        <span key={i} className="address-line">
          {l}
        </span>
      ))}
    </>
  );
}
