// The one way a command reaches a quote or invoice. A use case says what to decide; this module
// does the rest the same way every time: one store transaction (retried from a fresh read when a
// concurrent writer got there first), the Idempotency-Key's stored answer in that same commit,
// each document loaded for the account and checked against the version the user saw, decided by
// the domain's documentDecider, appended with the version it was read at. It is the one command
// pipeline (handleCommand.ts) with a document's load and decide: that pipeline settles
// the reactions the events set off (reactions/registry.ts) after the commit, so they are done
// when the answer goes.
import type { Actor } from '../../commands.ts';
import { type Answer, type CommandPorts, type CommandRun, handleCommand } from '../../handleCommand.ts';
import { type DocumentWork, documentWork } from './work.ts';

export type { Answer, CommandPorts, CommandRun, Once } from '../../handleCommand.ts';
export type { Decided, DocumentWork } from './work.ts';

/** Runs a document command's `work` in one transaction, as described at the top of this module. */
export function runDocumentCommand<T>(ports: CommandPorts, actor: Actor, run: CommandRun, work: (w: DocumentWork) => Promise<T>): Promise<Answer<T>> {
  return handleCommand(ports, actor, run, (tx) => work(documentWork(tx, ports, actor)));
}
