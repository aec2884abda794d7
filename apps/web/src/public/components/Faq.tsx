import type { ReactNode } from 'react';

export interface FaqItem {
  q: string;
  a: ReactNode;
}

/** Questions as native <details>: they open and close with no JavaScript at all. */
export function Faq({ items }: { items: readonly FaqItem[] }) {
  return (
    <div className="faq">
      {items.map((item) => (
        <details key={item.q} className="faq__item">
          <summary className="faq__q">{item.q}</summary>
          <div className="faq__a">{item.a}</div>
        </details>
      ))}
    </div>
  );
}
