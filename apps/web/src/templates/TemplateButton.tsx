import type { Template } from './templateStore.ts';

/** A small Load or Delete button for one saved template; screen readers hear which template. */
export function TemplateButton({ action, template, onClick, className }: { action: 'Load' | 'Delete'; template: Template; onClick: () => void; className?: string }) {
  const look = action === 'Delete' ? 'button--danger' : 'button--ghost';
  return (
    <button type="button" className={`button ${look} button--compact${className ? ` ${className}` : ''}`} onClick={onClick}>
      {action}
      <span className="visually-hidden"> template {template.name}</span>
    </button>
  );
}
