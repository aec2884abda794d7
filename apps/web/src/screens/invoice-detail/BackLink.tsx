import { Link } from '@tanstack/react-router';

/** Back to the Invoices & Quotes list. */
export function BackLink() {
  return (
    <Link to="/app/invoices" className="back-link">
      <span aria-hidden="true">←</span> Invoices &amp; Quotes
    </Link>
  );
}
