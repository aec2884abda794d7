// Shared by the suites that read mail off the SMTP sink: who a message went to and who it names.
import { addressesOf } from '@tradie/testkit/outbox';
import type { SinkMessage } from '@tradie/testkit/smtp-sink';

/**
 * A delivered message's addressing: the envelope (sender, and every recipient sorted, Bcc among
 * them) and the headers the recipients see, with `bccHeader` true if Bcc shows in them anywhere.
 */
export function addressing(got: SinkMessage) {
  return {
    mailFrom: got.envelope.mailFrom,
    rcptTo: [...got.envelope.rcptTo].sort(),
    to: addressesOf(got.mail.to),
    cc: addressesOf(got.mail.cc),
    replyTo: addressesOf(got.mail.replyTo),
    bccHeader: got.mail.bcc !== undefined || /^bcc:/im.test(got.raw.toString('latin1')),
  };
}
