import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, type Thread } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { MessageComposer } from '@/components/message-composer';
import { MessageList } from '@/components/message-list';
import { Markdown } from '@/components/markdown/markdown';
import { paths } from '@/config/paths';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import { useSocketEvent } from '@/hooks/use-live-events';
import { userFacingError } from '@/lib/api-client';
import { announce, writtenSince } from '@/lib/announcer';
import { withHiddenMessage, withMessage } from '@/lib/threads';
import { FlagControl } from '@/components/flag-control';
import { addMessage } from '../api/add-message';
import { readMessage } from '../api/read-message';

/** What a forum thread is about; direct threads have none and show the other participant. */
export interface ThreadTopic {
  name: string;
  description: string;
}

function logReadFailure(error: unknown) {
  console.error('Error while reading a new message in the thread', error);
}

/** The conversation's title, its way back (to the forums or the threads) and a forum's description. */
function ThreadHeader({ title, inForum, topic }: { title: string; inForum: boolean; topic: ThreadTopic | null }) {
  return (
    <header className="conversation__header">
      <DocumentTitle title={title} />
      <Link className="conversation__back" to={inForum ? paths.forums() : paths.threads()}>
        <span aria-hidden="true">← </span>
        {inForum ? 'All forums' : 'All threads'}
      </Link>
      <h1 className="page-title conversation__title">{title}</h1>
      {topic === null ? null : <p className="conversation__subtitle muted">{topic.description}</p>}
    </header>
  );
}

/**
 * One conversation (spec: /threads/:tid): its messages, kept current by messageUpdate,
 * and a send box. Until the thread arrives, a forum's discussion already shows its name.
 */
export function ThreadView({
  tid,
  username,
  moderates,
  topic,
  thread,
}: {
  tid: string;
  username: string;
  /** A moderator or admin: hidden messages stay, marked (docs/product.md section 10). */
  moderates: boolean;
  topic: ThreadTopic | null;
  thread: Promise<Thread>;
}) {
  const feed = useLiveFeed<Thread>({
    messageUpdate: (current, { result }) => (result.tid === tid ? withMessage(current, result.message) : current),
    messageDeleteUpdate: (current, { tid: where, id, deleted, held }) =>
      where === tid
        ? withHiddenMessage(current, id, deleted, held, (message) => moderates || message.sender === username)
        : current,
  });
  const waiting = <ThreadHeader title={topic?.name ?? 'Thread'} inForum={topic !== null} topic={topic} />;
  return (
    <div className="conversation">
      <Deferred
        data={thread}
        loading={
          <>
            {waiting}
            <LoadingText>Loading messages…</LoadingText>
          </>
        }
        failed={() => (
          <>
            {waiting}
            <p className="empty-state">No messages found!</p>
          </>
        )}
      >
        {(loaded) => <Conversation tid={tid} username={username} topic={topic} loaded={loaded} feed={feed} />}
      </Deferred>
    </div>
  );
}

/**
 * The loaded conversation. A message that arrives while the thread is open is marked read
 * at once (spec section 4), so the thread does not turn bold in the list.
 */
function Conversation({
  tid,
  username,
  topic,
  loaded,
  feed,
}: {
  tid: string;
  username: string;
  topic: ThreadTopic | null;
  loaded: Thread;
  feed: LiveFeed<Thread>;
}) {
  const [thread, update] = useLiveData(loaded, feed);
  const participants = thread.accounts;
  const isParticipant = participants.includes(username);

  // Messages this page has had: an update of one (a like, a hide) is not news, nor is an old one
  // shown again (written before the page opened).
  const known = useRef<Set<string> | null>(null);
  known.current ??= new Set(loaded.messages.map((message) => message._id));
  const [openedAt] = useState(Date.now);
  useSocketEvent('messageUpdate', ({ result }) => {
    if (result.tid !== tid) return;
    const { message } = result;
    const fresh = !known.current!.has(message._id) && writtenSince(message.messageDateTime, openedAt);
    if (fresh && message.sender !== username && !message.views.includes(username)) {
      // docs/product.md section 12: a new message in the open thread is announced.
      announce('message', message.sender);
    }
    known.current!.add(message._id);
    if (isParticipant && !message.views.includes(username)) {
      readMessage(message._id, username).catch(logReadFailure);
    }
  });

  async function send(content: string): Promise<string | null> {
    try {
      const message = await addMessage(tid, username, content);
      update((current) => withMessage(current, message));
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }

  const other = participants.find((name) => name !== username) ?? null;
  // A forum's discussion (known from the route's loader), or a thread the reader takes no part in.
  const inForum = topic !== null || !isParticipant;
  let title = 'Forum discussion';
  if (topic !== null) title = topic.name;
  else if (isParticipant && other !== null) title = `Chatting with ${other}`;

  return (
    <>
      <ThreadHeader title={title} inForum={inForum} topic={topic} />
      <MessageList
        messages={thread.messages}
        label={title}
        emptyText="No messages yet."
        isOwn={(message) => message.sender.toLowerCase() === username.toLowerCase()}
        renderContent={(message) => <Markdown mode="inline" text={message.content} />}
        renderActions={(message) =>
          // A forum's messages may be flagged (docs/product.md section 10), a direct thread's not.
          inForum && !message.deleted && message.sender.toLowerCase() !== username.toLowerCase() ? (
            <FlagControl targetType="message" targetId={message._id} what={`the message by ${message.sender}`} />
          ) : null
        }
      />
      <MessageComposer
        label="Message"
        placeholder="Say something nice!"
        buttonLabel="Send Message!"
        onSend={send}
        mentions
      />
    </>
  );
}
