// The notice that must go with every payment claim under the Construction Contracts Act 2002
// (s 20(3)–(4)): an outline of how the payer responds, and what follows if they do not respond or
// do not pay. Its form is prescribed by the Construction Contracts Regulations 2003, Schedule 1,
// Form 1 (as replaced from 1 December 2015, when the notice became required on every claim, not
// only claims on residential occupiers).
//
// The official text of Form 1 as in force could not be obtained (docs/cca-payment-claims.md), so
// this is an outline written from s 20(3) and it says so: it never calls itself Form 1 nor claims
// to be the prescribed wording. When the official text is obtained, it replaces this word for word
// (a new version), with a test comparing the PDF's text with it.
//
// The text is versioned: a claim records which version it carried (`version` below), so a claim
// served under an older text can be shown with it. Changing any word here means a new version.
// Where it came from and how it was checked: docs/cca-payment-claims.md.

export interface Form1Section {
  heading: string;
  paragraphs: readonly string[];
  bullets?: readonly string[];
  /** Paragraphs after the bullets. */
  after?: readonly string[];
}

export interface Form1Text {
  version: string;
  source: string;
  title: string;
  subtitle: string;
  intro: readonly string[];
  sections: readonly Form1Section[];
}

export const CCA_FORM_1: Form1Text = {
  version: 'form1-2015-12-01/2',
  source:
    'An outline, written from the Construction Contracts Act 2002, s 20(3)–(4), of how to respond to a payment claim and what follows if you do not; the prescribed form is Form 1 of the Construction Contracts Regulations 2003 (SR 2003/30), Schedule 1: https://www.legislation.govt.nz/regulation/public/2003/0030/latest/',
  title: 'Important notice',
  subtitle: 'What you must do if you receive a payment claim under the Construction Contracts Act 2002',
  intro: [
    'Information to accompany a payment claim (section 20(3) of the Construction Contracts Act 2002): how to respond to it, and what follows if you do not respond or do not pay.',
    'If you have received a payment claim under the Construction Contracts Act 2002, you must respond if you want to avoid becoming liable to pay the full claimed amount.',
  ],
  sections: [
    {
      heading: 'How to respond',
      paragraphs: [
        'You must either pay the full claimed amount by the due date for payment, or provide the payee with a payment schedule within the time stated in the construction contract or, if the contract does not state a time, within 20 working days after the payment claim was served on you.',
      ],
      bullets: [
        'A payment schedule must be in writing.',
        'It must identify the payment claim to which it relates.',
        'It must indicate the amount of the payment that you propose to make (the scheduled amount).',
      ],
      after: [
        'If the scheduled amount is less than the claimed amount, the payment schedule must also indicate the manner in which you calculated the scheduled amount, your reason or reasons for the difference between the scheduled amount and the claimed amount, and, if the difference is because you are withholding payment on any basis, your reason or reasons for withholding payment.',
      ],
    },
    {
      heading: 'What happens if you do not respond',
      paragraphs: [
        'If you do not provide a payment schedule within the required time, you become liable to pay the full claimed amount on the due date for payment.',
      ],
    },
    {
      heading: 'What happens if you do not pay',
      paragraphs: [
        'If you do not pay the claimed amount (when you did not provide a payment schedule in time) or the scheduled amount (when you did) in full by the due date for payment, the payee may:',
      ],
      bullets: [
        'recover the unpaid amount from you as a debt due, in any court, together with the actual and reasonable costs of recovery awarded against you; and',
        'serve notice on you of their intention to suspend carrying out construction work under the construction contract, and suspend the work 5 working days after that notice.',
      ],
      after: [
        'If you dispute the payment claim, either party may refer the dispute to adjudication under the Construction Contracts Act 2002.',
      ],
    },
    {
      heading: 'Working days',
      paragraphs: [
        'Working days do not include Saturdays, Sundays, national public holidays, or any day from 24 December to 5 January.',
        'You may wish to get legal advice about this payment claim. More information about the Construction Contracts Act 2002 is published by the Ministry of Business, Innovation and Employment at www.building.govt.nz.',
      ],
    },
  ],
};

/** The notice as plain text, paragraph by paragraph (the email carries it; the PDF lays it out). */
export function form1PlainText(form: Form1Text = CCA_FORM_1): string {
  const out: string[] = [form.title.toUpperCase(), form.subtitle, '', ...form.intro.flatMap((p) => [p, ''])];
  for (const s of form.sections) {
    out.push(s.heading, '');
    for (const p of s.paragraphs) out.push(p, '');
    if (s.bullets) {
      for (const b of s.bullets) out.push(`  • ${b}`);
      out.push('');
    }
    for (const p of s.after ?? []) out.push(p, '');
  }
  return out.join('\n').trimEnd();
}
