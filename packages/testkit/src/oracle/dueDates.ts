// An independent due-date oracle: written from the terms' words with the platform's own calendar
// (Date.UTC rolls over months and years by itself), sharing no code with the domain's dueDateFor.

/** 'YYYY-MM-DD' of a UTC date. */
const iso = (t: Date): string => t.toISOString().slice(0, 10);

/** The due date an invoice issued on `issueDate` ('YYYY-MM-DD') gets from `terms`, as a person would work it out. */
export function oracleDueDate(issueDate: string, terms: string): string {
  const [y, m, d] = issueDate.split('-').map(Number) as [number, number, number];
  if (terms === 'Due on receipt') return issueDate;
  if (terms === '20th of the month following') return iso(new Date(Date.UTC(y, m, 20))); // month m (0-based) is the next month
  const days = /^(\d+) days?$/.exec(terms);
  if (!days) throw new Error(`the oracle does not know the terms ${terms}`);
  return iso(new Date(Date.UTC(y, m - 1, d + Number(days[1]))));
}
