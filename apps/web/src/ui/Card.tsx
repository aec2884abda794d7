import type { ComponentPropsWithoutRef, ReactNode } from 'react';

interface CardProps extends Omit<ComponentPropsWithoutRef<'section'>, 'title'> {
  /** The heading's id: the section is labelled by it. */
  titleId: string;
  title: ReactNode;
  /** The heading is for screen readers only. */
  hiddenTitle?: boolean;
}

/** A .card section headed by its h2 title (.card__title), and labelled by it. */
export function Card({ titleId, title, hiddenTitle, className, children, ...rest }: CardProps) {
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={titleId} {...rest}>
      <h2 id={titleId} className={hiddenTitle ? 'visually-hidden' : 'card__title'}>
        {title}
      </h2>
      {children}
    </section>
  );
}
