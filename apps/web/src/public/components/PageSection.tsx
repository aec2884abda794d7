import type { ReactNode } from 'react';

interface PageSectionProps {
  /** 'tight' (less space above and below) or 'sunken' (the shaded band). */
  tone?: 'tight' | 'sunken';
  id?: string;
  /** The id of the section's heading, which names it... */
  titleId?: string;
  /** ...or its name when it has no heading. */
  label?: string;
  /** The narrow reading width (.container--prose). */
  prose?: boolean;
  children: ReactNode;
}

/** A band of a public page (.section) with the page's container inside it. */
export function PageSection({ tone, id, titleId, label, prose, children }: PageSectionProps) {
  return (
    <section id={id} className={tone ? `section section--${tone}` : 'section'} aria-labelledby={titleId} aria-label={label}>
      <div className={prose ? 'container container--prose' : 'container'}>{children}</div>
    </section>
  );
}

/** The top of an inner public page: its h1 and intro on the tinted band (a legal page's is a header). */
export function PageHero({ legal, prose, children }: { legal?: boolean; prose?: boolean; children: ReactNode }) {
  const inner = <div className={prose ? 'container container--prose' : 'container'}>{children}</div>;
  return legal ? <header className="page-hero page-hero--legal">{inner}</header> : <section className="page-hero">{inner}</section>;
}
