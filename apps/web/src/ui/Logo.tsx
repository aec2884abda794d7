/** The mark: a job sheet with a tick, on harbour blue. Decorative wherever a text name sits beside it. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false" className="logo-mark">
      <rect width="48" height="48" rx="11" fill="#0d4a63" />
      <path d="M15 10h13l7 7v21a2 2 0 0 1-2 2H15a2 2 0 0 1-2-2V12a2 2 0 0 1 2-2z" fill="#fff" />
      <path d="M28 10v7h7z" fill="#bcd9e4" />
      <path d="M18.5 28.5l4 4 8.5-9" fill="none" stroke="#ff8a1f" strokeWidth="3.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
