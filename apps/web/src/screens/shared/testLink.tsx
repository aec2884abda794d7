// For the screens' jsdom tests: TanStack Router's Link as a plain anchor (to with $id filled from
// params), so a component renders without a router and its links can be read.
import type { ReactNode } from 'react';

export function TestLink({ children, to, params, className, onClick }: { children: ReactNode; to: string; params?: { id: string }; className?: string; onClick?: () => void }) {
  return (
    <a href={params ? to.replace('$id', params.id) : to} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
