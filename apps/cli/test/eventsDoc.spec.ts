// docs/events.md cannot drift from the event registry: its generated section is rendered again
// here, in memory, and must equal the committed file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventSchemas } from '@tradie/domain';
import { EVENTS_DOC_PATH, GENERATED_END, GENERATED_START, renderEventsReference, withGeneratedSection } from '../src/eventsDoc.ts';

describe('docs/events.md', () => {
  const committed = readFileSync(EVENTS_DOC_PATH, 'utf8');

  it('is the generated reference of the event registry', () => {
    if (withGeneratedSection(committed) !== committed) expect.fail('docs/events.md is stale: run npm run events:doc');
  });

  it('keeps the hand-written prose above the generated section', () => {
    const start = committed.indexOf(GENERATED_START);
    expect(start).toBeGreaterThan(0);
    expect(committed.indexOf(GENERATED_END)).toBeGreaterThan(start);
    expect(committed.slice(0, start)).toContain('Envelope (as stored');
  });

  it('documents every registered event with its version', () => {
    const reference = renderEventsReference();
    for (const [type, entry] of Object.entries(eventSchemas)) {
      expect(reference).toContain(`### ${type}\n\nSchema version ${entry.version}.`);
    }
  });

  it('replaces only the generated section', () => {
    const doc = `# Title\n\nprose\n\n${GENERATED_START}\nold\n${GENERATED_END}\n\nafter\n`;
    const next = withGeneratedSection(doc, 'new');
    expect(next.startsWith('# Title\n\nprose\n\n')).toBe(true);
    expect(next).toContain('\nnew\n');
    expect(next).not.toContain('\nold\n');
    expect(next.endsWith(`${GENERATED_END}\n\nafter\n`)).toBe(true);
  });
});
