import type { DocumentDetail } from '@tradie/contracts';
import { formatNzDate, nzDateOf } from '@tradie/domain';

/** The emails this document went out in; nothing until it has been sent. */
export function SendHistory({ sends }: { sends: DocumentDetail['sends'] }) {
  if (sends.length === 0) return null;
  return (
    <section className="card" aria-labelledby="detail-sends-title">
      <h2 id="detail-sends-title" className="card__title">
        Emails sent
      </h2>
      <ul className="detail-sends">
        {sends.map((s, i) => (
          <li key={i}>
            To {s.to.join(', ')}
            {s.cc.length > 0 ? `, CC ${s.cc.join(', ')}` : ''}
            {s.at ? ` · ${formatNzDate(nzDateOf(s.at))}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
