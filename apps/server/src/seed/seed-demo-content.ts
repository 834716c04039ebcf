/**
 * Writes the demo community's hand-written content (demo-content.ts) through the app's own
 * commands, so counters, search vectors, tag counts and read receipts are exactly what the
 * app keeps. Running it again writes nothing twice: what is already there is skipped.
 */
import {
  commentTextError,
  forumDescriptionError,
  forumNameError,
  MESSAGES,
  messageError,
  PORPCHAT_THREAD_ID,
  porpNameError,
  tagNamesError,
  titleError,
  type Outcome,
  type Role,
  uploadUrl,
  type VoteDirection,
} from '@porpoise/core';
import { answerTextError, markdownLinksValid, questionTextError } from '@porpoise/core/markdown';
import { nameSkeleton } from '@porpoise/core/skeleton';
import { sql } from 'drizzle-orm';
import { toggleAcceptedAnswer } from '../commands/accept-answer.ts';
import { accepted, addAnswer } from '../commands/add-answer.ts';
import { addComment } from '../commands/add-comment.ts';
import { addQuestion } from '../commands/add-question.ts';
import { createDirectThread, createForum, markLastRead, postMessage } from '../commands/threads.ts';
import { toggleAnswerVote, toggleVote } from '../commands/vote.ts';
import { queryRows, type Db } from '../db/client.ts';
import { writeImageUses } from '../events/image-uses.ts';
import { writeReputation } from '../events/reputation.ts';
import { recordUpload } from '../commands/uploads.ts';
import { reencodeImage } from '../uploads/reencode.ts';
import type { ImageStorage } from '../uploads/storage.ts';
import sharp from 'sharp';
import { HttpError } from '../http/http-error.ts';
import type { RateHit } from '../limits/rate-counters.ts';
import type { Actor } from '../policies/actor.ts';
import { findAccountByName, memberWithSkeleton } from '../queries/accounts.ts';
import { findThread } from '../queries/threads.ts';
import { DEMO_USERNAMES, type DemoAuthor } from './demo-accounts.ts';
import {
  DEMO_CONTENT,
  type DemoChatMessage,
  type DemoContent,
  type DemoDirectThread,
  type DemoForum,
  type DemoImage,
  type DemoMessage,
  type DemoQuestion,
  type DemoVotes,
} from './demo-content.ts';

/** What one run wrote (zeros for what was already there). */
export interface DemoContentWritten {
  questions: number;
  answers: number;
  comments: number;
  votes: number;
  /** Images uploaded and shown in questions. */
  images: number;
  directThreads: number;
  forums: number;
  /** Messages in direct threads and forums. */
  messages: number;
  porpchat: number;
}

type Actors = ReadonlyMap<DemoAuthor, Actor>;

/**
 * addAnswer counts its rate limits inside its own statement and needs at least one key (an
 * empty list is an empty VALUES, and no row comes back). The seed's key has no real limit
 * and is removed at the end.
 */
const SEED_HIT: RateHit = { key: 'seed:demo-content', rule: { max: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } };

/**
 * Writes the demo content that is not there yet and says what it wrote. The demo accounts must
 * exist. Its images are stored in `storage` (the server's uploads directory).
 */
export async function seedDemoContent(
  db: Db,
  storage: ImageStorage,
  content: DemoContent = DEMO_CONTENT,
): Promise<DemoContentWritten> {
  const problems = demoContentProblems(content);
  if (problems.length > 0) throw new Error(`the demo content breaks the app's rules:\n${problems.join('\n')}`);
  const actors = await demoActors(db);
  const written: DemoContentWritten = {
    questions: 0,
    answers: 0,
    comments: 0,
    votes: 0,
    images: 0,
    directThreads: 0,
    forums: 0,
    messages: 0,
    porpchat: 0,
  };
  try {
    for (const question of content.questions) await writeQuestion(db, storage, actors, question, written);
  } finally {
    await db.execute(sql`delete from rate_limits where key = ${SEED_HIT.key}`);
  }
  for (const thread of content.directThreads) await writeDirectThread(db, actors, thread, written);
  for (const forum of content.forums) await writeForum(db, actors, forum, written);
  await writePorpchat(db, actors, content.porpchat, written);
  return written;
}

/** Every way the content breaks a rule the app holds its users to, one line each (none: []). */
export function demoContentProblems(content: DemoContent): string[] {
  const problems: string[] = [];
  const check = (where: string, error: string | null) => {
    if (error !== null) problems.push(`${where}: ${error}`);
  };
  const inline = (where: string, text: string, rule: (text: string) => string | null) => {
    check(where, rule(text));
    check(where, markdownLinksValid(text, 'inline') ? null : MESSAGES.invalidHyperlink);
  };
  for (const question of content.questions) {
    const where = `question "${question.title}"`;
    check(where, titleError(question.title));
    check(where, questionTextError(question.text));
    check(where, tagNamesError(question.tags));
    if (question.image && question.image.description.trim() === '') check(where, MESSAGES.imageDescription);
    if (question.tags.some((tag) => tag !== tag.toLowerCase() || /\s/.test(tag))) check(where, MESSAGES.tagsTooFew);
    if (question.answers.filter((answer) => answer.accepted).length > 1) check(where, 'more than one accepted answer');
    question.comments?.forEach((comment) => inline(`${where}, a comment`, comment.text, commentTextError));
    question.answers.forEach((answer, index) => {
      check(`${where}, answer ${index + 1}`, answerTextError(answer.text));
      answer.comments?.forEach((comment) => inline(`${where}, answer ${index + 1}`, comment.text, commentTextError));
    });
  }
  for (const { between, messages } of content.directThreads) {
    const where = `the thread of ${between.join(' and ')}`;
    if (between[0] === between[1]) check(where, MESSAGES.threadFailed);
    for (const message of messages) {
      if (!between.includes(message.by)) check(where, `${message.by} is not in it`);
      inline(where, message.text, messageError);
    }
  }
  for (const forum of content.forums) {
    check(`forum "${forum.name}"`, forumNameError(forum.name) ?? forumDescriptionError(forum.description));
    forum.messages.forEach((message) => inline(`forum "${forum.name}"`, message.text, messageError));
  }
  for (const message of content.porpchat) {
    check(`PorpChat, ${message.sender}`, porpNameError(message.sender));
    inline(`PorpChat, ${message.sender}`, message.text, messageError);
  }
  return problems;
}

/** The demo accounts as the commands take their actor: id, name and role, read from the database. */
async function demoActors(db: Db): Promise<Actors> {
  const actors = new Map<DemoAuthor, Actor>();
  for (const username of DEMO_USERNAMES) {
    const account = await findAccountByName(db, username);
    if (!account) throw new Error(`no demo account ${username}: run seedDemoAccounts first`);
    actors.set(username, { id: account.id, username: account.username, role: account.role as Role });
  }
  return actors;
}

const isDemoAuthor = (name: string): name is DemoAuthor => (DEMO_USERNAMES as readonly string[]).includes(name);

function actorOf(actors: Actors, name: DemoAuthor): Actor {
  const actor = actors.get(name);
  if (!actor) throw new Error(`no demo account ${name}`);
  return actor;
}

/**
 * A vote or an accept with its reputation (docs/product.md section 13), written as the event
 * processor writes it for the API: the demo's reputation comes from its votes and accepts.
 */
async function withLedger(db: Db, command: (tx: Db) => Promise<Outcome<unknown>>): Promise<void> {
  await db.transaction(async (tx) => writeReputation(tx, (await command(tx)).events));
}

/** Each listed account votes once, as the vote button does. */
async function castVotes(
  actors: Actors,
  votes: DemoVotes | undefined,
  vote: (actor: Actor, direction: VoteDirection) => Promise<unknown>,
): Promise<number> {
  const ballots = [
    ...(votes?.up ?? []).map((name) => ({ name, direction: 'up' as const })),
    ...(votes?.down ?? []).map((name) => ({ name, direction: 'down' as const })),
  ];
  for (const { name, direction } of ballots) await vote(actorOf(actors, name), direction);
  return ballots.length;
}

async function questionExists(db: Db, asker: Actor, title: string): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from questions where asked_by = ${asker.id} and title = ${title} limit 1`,
  );
  return rows.length > 0;
}

/** A question with its votes, comments and answers (theirs too), and the asker's accepted answer. */
async function writeQuestion(
  db: Db,
  storage: ImageStorage,
  actors: Actors,
  question: DemoQuestion,
  written: DemoContentWritten,
) {
  const asker = actorOf(actors, question.by);
  if (await questionExists(db, asker, question.title)) return;
  let text = question.text;
  if (question.image) {
    text += `\n\n${await uploadDemoImage(db, storage, asker, question.image)}`;
    written.images++;
  }
  const asked = await addQuestion(db, asker, { title: question.title, text, tagNames: question.tags });
  // What the event processor does for a post that embeds images: the sweep keeps them.
  await writeImageUses(db, asked.events);
  const questionId = asked.result;
  written.questions++;
  written.votes += await castVotes(actors, question.votes, (actor, direction) =>
    withLedger(db, (tx) => toggleVote(tx, actor, questionId, direction)),
  );
  for (const comment of question.comments ?? []) {
    await addComment(db, actorOf(actors, comment.by), 'question', questionId, comment.text);
    written.comments++;
  }
  for (const answer of question.answers) {
    const result = accepted(
      (await addAnswer(db, actorOf(actors, answer.by), questionId, answer.text, [SEED_HIT])).result,
    );
    written.answers++;
    written.votes += await castVotes(actors, answer.votes, (actor, direction) =>
      withLedger(db, (tx) => toggleAnswerVote(tx, actor, result.id, direction)),
    );
    for (const comment of answer.comments ?? []) {
      await addComment(db, actorOf(actors, comment.by), 'answer', result.id, comment.text);
      written.comments++;
    }
    if (answer.accepted) await withLedger(db, (tx) => toggleAcceptedAnswer(tx, questionId, result.id));
  }
}

/** Draws a demo image, uploads it as any image is, and answers its Markdown (`![description](url)`). */
async function uploadDemoImage(db: Db, storage: ImageStorage, owner: Actor, image: DemoImage): Promise<string> {
  const drawn = await sharp(Buffer.from(image.svg)).png().toBuffer();
  const stored = await reencodeImage(drawn);
  await recordUpload(db, storage, owner, stored);
  return `![${image.description}](${uploadUrl(stored.name)})`;
}

/** Whether a command failed with this one of the app's messages (the thing is there already). */
const refusedWith = (error: unknown, message: string) => error instanceof HttpError && error.message === message;

/** Posts as a member, who has read the thread up to here: replying is reading. */
async function postAsMember(db: Db, threadId: number, sender: Actor, content: string): Promise<void> {
  await markLastRead(db, sender.id, threadId);
  await postMessage(db, {
    threadId,
    senderAccountId: sender.id,
    senderName: sender.username,
    content,
    readBySender: true,
  });
}

async function postMessages(db: Db, actors: Actors, threadId: number, messages: DemoMessage[]): Promise<number> {
  for (const message of messages) await postAsMember(db, threadId, actorOf(actors, message.by), message.text);
  return messages.length;
}

/** A direct thread and its messages; a pair that has a thread already is left as it is. */
async function writeDirectThread(db: Db, actors: Actors, thread: DemoDirectThread, written: DemoContentWritten) {
  const [starter, recipient] = thread.between;
  let threadId: number;
  try {
    ({ threadId } = (await createDirectThread(db, actorOf(actors, starter), recipient)).result);
  } catch (error) {
    if (refusedWith(error, MESSAGES.threadFailed)) return;
    throw error;
  }
  written.directThreads++;
  written.messages += await postMessages(db, actors, threadId, thread.messages);
}

/** A forum and its discussion; a forum whose name is taken is left as it is. */
async function writeForum(db: Db, actors: Actors, forum: DemoForum, written: DemoContentWritten) {
  let threadId: number | null;
  try {
    ({ threadId } = (await createForum(db, actorOf(actors, forum.createdBy), forum.name, forum.description)).result);
  } catch (error) {
    if (refusedWith(error, MESSAGES.forumNameTaken)) return;
    throw error;
  }
  if (threadId === null) throw new Error(`forum ${forum.name} has no thread`);
  written.forums++;
  written.messages += await postMessages(db, actors, threadId, forum.messages);
}

/**
 * PorpChat's history: visitors under their typed names (never a member's, as the route
 * holds them to), members as themselves; no read receipts there. Skipped when its first
 * message is there already.
 */
async function writePorpchat(db: Db, actors: Actors, chat: DemoChatMessage[], written: DemoContentWritten) {
  const thread = await findThread(db, PORPCHAT_THREAD_ID);
  if (!thread) throw new Error('no PorpChat thread: the migrations create it');
  const [first] = chat;
  if (!first) return;
  const [already] = await queryRows<{ id: number }>(
    db,
    sql`select id from messages where thread_id = ${thread.id} and sender_name = ${first.sender}
      and content = ${first.text} limit 1`,
  );
  if (already) return;
  for (const { sender, text } of chat) {
    const member = isDemoAuthor(sender) ? actorOf(actors, sender) : null;
    if (!member && (await memberWithSkeleton(db, nameSkeleton(sender))))
      throw new Error(`PorpChat name ${sender} is a member's: ${MESSAGES.porpNameTaken}`);
    await postMessage(db, {
      threadId: thread.id,
      senderAccountId: member?.id ?? null,
      senderName: member?.username ?? sender,
      content: text,
      readBySender: false,
    });
    written.porpchat++;
  }
}

/** One line saying what a run wrote, for `npm run seed`. */
export function describeDemoContent(written: DemoContentWritten): string {
  if (Object.values(written).every((count) => count === 0)) return 'Demo content: there already, nothing added.';
  return (
    `Demo content: ${written.questions} questions with ${written.answers} answers, ${written.comments} comments ` +
    `and ${written.votes} votes, ${written.images} images; ${written.directThreads} direct threads and ${written.forums} forums with ` +
    `${written.messages} messages; ${written.porpchat} PorpChat messages.`
  );
}
