import { useLiveEvents, useSocketEvent } from '@/hooks/use-live-events';
import { withMessage } from '@/lib/threads';
import { Link } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { DocumentTitle } from '@/components/document-title';
import { MessageComposer } from '@/components/message-composer';
import { MessageList } from '@/components/message-list';
import { RichText } from '@/components/rich-text';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { userFacingError } from '@/lib/api-client';
import { addMessage } from '../api/add-message';
import { getThread } from '../api/get-thread';
import { readMessage } from '../api/read-message';

/** What a forum thread is about; direct threads have none and show the other participant. */
export interface ThreadTopic {
  name: string;
  description: string;
}

function logReadFailure(error: unknown) {
  console.error('Error while reading a new message in the thread', error);
}

/**
 * One conversation (spec: /threads/:tid): its messages, kept current by messageUpdate,
 * and a send box. A message that arrives while the thread is open is marked read at
 * once (spec section 4), so the thread does not turn bold in the list.
 */
export function ThreadView({ tid, username, topic }: { tid: string; username: string; topic: ThreadTopic | null }) {
  const [thread, update] = useRemoteData(`thread:${tid}`, (signal) => getThread(tid, username, signal));
  const participants = thread.status === 'ready' ? thread.data.accounts : null;
  const isParticipant = participants?.includes(username) ?? false;

  useLiveEvents(update, {
    messageUpdate: (current, { result }) => (result.tid === tid ? withMessage(current, result.message) : current),
  });
  // A message that arrives while the thread is open is read at once.
  useSocketEvent('messageUpdate', ({ result }) => {
    if (result.tid === tid && isParticipant && !result.message.views.includes(username)) {
      readMessage(result.message._id, username).catch(logReadFailure);
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

  const other = participants?.find((name) => name !== username) ?? null;
  // A forum's discussion (known from the route's loader), or a thread the reader takes no part in.
  const inForum = topic !== null || (participants !== null && !isParticipant);
  let title = 'Thread';
  if (topic !== null) title = topic.name;
  else if (isParticipant && other !== null) title = `Chatting with ${other}`;
  else if (participants !== null) title = 'Forum discussion';

  return (
    <div className="conversation">
      <DocumentTitle title={title} />
      <header className="conversation__header">
        <Link className="conversation__back" to={inForum ? paths.forums() : paths.threads()}>
          <span aria-hidden="true">← </span>
          {inForum ? 'All forums' : 'All threads'}
        </Link>
        <h1 className="page-title conversation__title">{title}</h1>
        {topic === null ? null : <p className="conversation__subtitle muted">{topic.description}</p>}
      </header>
      {thread.status === 'loading' ? (
        <p className="muted" role="status">
          Loading messages…
        </p>
      ) : null}
      {thread.status === 'error' ? <p className="empty-state">No messages found!</p> : null}
      {thread.status === 'ready' ? (
        <>
          <MessageList
            messages={thread.data.messages}
            label={title}
            emptyText="No messages yet."
            isOwn={(message) => message.sender.toLowerCase() === username.toLowerCase()}
            renderContent={(message) => <RichText text={message.content} />}
          />
          <MessageComposer
            label="Message"
            placeholder="Say something nice!"
            buttonLabel="Send Message!"
            onSend={send}
          />
        </>
      ) : null}
    </div>
  );
}
