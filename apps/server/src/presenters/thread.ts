import { PORPCHAT_THREAD_ID, type Forum, type HeldFor, type Message, type Thread } from '@porpoise/core';

export interface MessageRow {
  id: number;
  content: string;
  senderName: string;
  /** The account that sent it; null for an anonymous PorpChat post. */
  senderAccountId: number | null;
  /** Hidden (held by flags, or deleted by a moderator): only moderators and its sender's account read it. */
  deleted: boolean;
  heldFor: HeldFor | null;
  messageDateTime: Date;
  views: string[];
  likes: string[];
}

export const threadIdOf = (thread: { id: number; kind: string }) =>
  thread.kind === 'porpchat' ? PORPCHAT_THREAD_ID : String(thread.id);

/** A message as its thread shows it; a PorpChat message never says who read it (docs/product.md section 6). */
export const presentMessage = (row: MessageRow, thread: { kind: string }): Message => ({
  _id: String(row.id),
  content: row.content,
  sender: row.senderName,
  messageDateTime: new Date(row.messageDateTime).toISOString(),
  views: thread.kind === 'porpchat' ? [] : row.views,
  likes: row.likes,
  ...(row.deleted ? { deleted: true as const } : {}),
  ...(row.heldFor === null ? {} : { held: row.heldFor }),
});

export const presentThread = (
  thread: { id: number; kind: string; accounts: string[]; threadUpdatedDateTime: Date },
  messages: MessageRow[],
): Thread => ({
  _id: threadIdOf(thread),
  accounts: thread.accounts,
  messages: messages.map((row) => presentMessage(row, thread)),
  threadUpdatedDateTime: new Date(thread.threadUpdatedDateTime).toISOString(),
});

export const presentForum = (row: {
  id: number;
  name: string;
  description: string;
  threadId: number | null;
}): Forum => ({
  _id: String(row.id),
  name: row.name,
  description: row.description,
  thread: row.threadId === null ? '' : String(row.threadId),
});
