import { describe, expect, it } from 'vitest';
import { acceptedText } from './TimelineCard.tsx';
import { nzDateTime } from '../shared/nzTime.ts';

describe('the timeline', () => {
  it("an online acceptance reads 'Accepted by {name} on {NZ date}'; the last one counts", () => {
    const entries = [
      { kind: 'sent' as const, at: '2026-11-20T01:00:00.000Z', text: 'Sent to jo@example.nz' },
      { kind: 'accepted' as const, at: '2026-11-25T21:30:00.000Z', text: 'Accepted by Jo Bloggs (signed)' },
    ];
    expect(acceptedText(entries)).toBe('Accepted by Jo Bloggs on 26 November 2026 (signed)');
    expect(acceptedText([{ kind: 'accepted', at: '2026-11-20T01:00:00.000Z', text: 'Accepted by Hēmi Walker' }])).toBe('Accepted by Hēmi Walker on 20 November 2026');
  });

  it('a quote the tradie marked accepted, or none accepted: no line', () => {
    expect(acceptedText([{ kind: 'accepted', at: '2026-11-20T01:00:00.000Z', text: 'Marked accepted' }])).toBeNull();
    expect(acceptedText([])).toBeNull();
  });

  it('times are New Zealand times', () => {
    expect(nzDateTime('2026-11-25T21:30:00.000Z')).toMatch(/^26 Nov 2026, 10:30\s?am$/i);
  });
});
