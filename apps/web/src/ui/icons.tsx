import type { ReactNode } from 'react';

/** Simple 24 px line icons. Always decorative: the text next to them carries the meaning. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** An icon component drawing `shapes` on the 24 px grid. */
const icon = (shapes: ReactNode) => () => <Icon>{shapes}</Icon>;

export const CalculatorIcon = icon(<><rect x="5" y="2.5" width="14" height="19" rx="2" /><path d="M8 6.5h8M8.5 11h.01M12 11h.01M15.5 11h.01M8.5 14.5h.01M12 14.5h.01M15.5 14.5v3.5M8.5 18h.01M12 18h.01" /></>);
export const InvoiceIcon = icon(<><path d="M6 2.5h9l4 4v14a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-17a1 1 0 0 1 1-1z" /><path d="M14.5 2.5V7h4.5M8.5 12h7M8.5 15.5h7M8.5 8.5h3" /></>);
export const TaxIcon = icon(<><path d="M4 21V6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v15l-3-2-2.5 2-2.5-2-2.5 2L7 19z" /><path d="M9 14l6-6M9.5 8.5h.01M14.5 13.5h.01" /></>);
export const ClientsIcon = icon(<><circle cx="9" cy="8" r="3.5" /><path d="M2.5 20.5c.5-3.5 3.2-5.5 6.5-5.5s6 2 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 15.5c1.7.8 2.8 2.5 3 5" /></>);
export const TemplateIcon = icon(<><rect x="3" y="3" width="13" height="13" rx="2" /><path d="M8 21h11a2 2 0 0 0 2-2V8" /></>);
export const SyncIcon = icon(<><path d="M20 11a8 8 0 0 0-14.5-4.5L3 9M4 13a8 8 0 0 0 14.5 4.5L21 15" /><path d="M3 4v5h5M21 20v-5h-5" /></>);
export const ReportIcon = icon(<><path d="M3 3v18h18" /><path d="M7 15l4-4 3 3 5-6" /></>);
export const PhoneIcon = icon(<><rect x="6" y="2" width="12" height="20" rx="2.5" /><path d="M11 18.5h2" /></>);
export const ClockIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></>);
export const BrushIcon = icon(<><path d="M14 4l6 6-8.5 8.5a3 3 0 0 1-2 .9L5 20l.6-4.5a3 3 0 0 1 .9-2z" /><path d="M12 6l6 6" /></>);
export const PaidIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M8 12.5l2.7 2.7L16.5 9.5" /></>);
export const SendIcon = icon(<path d="M21 3L10 14M21 3l-7 18-4-7-7-4z" />);
export const CheckIcon = icon(<path d="M5 12.5l4.5 4.5L19 7.5" />);
export const PlayIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M10 8.5v7l6-3.5z" /></>);
export const SettingsIcon = icon(<><circle cx="12" cy="12" r="3" /><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" /></>);
export const LogoutIcon = icon(<path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />);
export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />);
