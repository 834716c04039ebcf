import { useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, PORPCHAT_THREAD_ID, type Account, type Thread } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { MessageComposer } from '@/components/message-composer';
import { MessageList } from '@/components/message-list';
import { paths } from '@/config/paths';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import { userFacingError } from '@/lib/api-client';
import { moderates } from '@/lib/roles';
import { withHiddenMessage, withMessage } from '@/lib/threads';
import { FlagControl } from '@/components/flag-control';
import { postPorpMessage } from '../api/porpchat-api';
import { readSentIds, rememberSentId } from '../sent-messages';
import { PorpMessageContent } from './porp-message-content';

/**
 * The one public room (spec: /porpchat): its history, messages arriving live over the
 * app's socket (which anonymous visitors have too) and a send box under the typed name,
 * usable while the history loads. Messages this tab posted are its own ('(you)'),
 * whatever name another visitor types.
 */
export function PorpchatRoom({
  name,
  history,
  account,
}: {
  name: string;
  history: Promise<Thread>;
  /** The signed-in account, if any: members flag messages, moderators keep hidden ones in view. */
  account: Account | null;
}) {
  const [sentIds, setSentIds] = useState(readSentIds);
  const keepsHidden = moderates(account);
  const feed = useLiveFeed<Thread>({
    messageUpdate: (current, { result }) =>
      result.tid === PORPCHAT_THREAD_ID ? withMessage(current, result.message) : current,
    // A hidden message leaves the room for everyone but moderators (docs/product.md section 10).
    messageDeleteUpdate: (current, { tid, id, deleted, held }) =>
      tid === PORPCHAT_THREAD_ID
        ? withHiddenMessage(current, id, deleted, held, (message) => keepsHidden || sentIds.has(message._id))
        : current,
  });

  async function send(content: string): Promise<string | null> {
    try {
      const message = await postPorpMessage(name, content);
      setSentIds(rememberSentId(message._id));
      // Shown at once, before its messageUpdate comes back.
      feed.update((current) => withMessage(current, message));
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }

  return (
    <div className="conversation porpchat">
      <header className="conversation__header porpchat__header">
        <h1 className="page-title conversation__title">PorpChat</h1>
        <p className="conversation__subtitle">
          You are chatting as <strong>{name}</strong>. <Link to={paths.landing()}>Change name</Link>
        </p>
      </header>
      <Deferred
        data={history}
        loading={<LoadingText>Loading messages…</LoadingText>}
        failed={() => <p className="empty-state">No messages found!</p>}
      >
        {(loaded) => <PorpchatMessages loaded={loaded} feed={feed} sentIds={sentIds} signedIn={account !== null} />}
      </Deferred>
      <MessageComposer label="Message" placeholder="Say something nice!" buttonLabel="Send" onSend={send} />
    </div>
  );
}

function PorpchatMessages({
  loaded,
  feed,
  sentIds,
  signedIn,
}: {
  loaded: Thread;
  feed: LiveFeed<Thread>;
  sentIds: ReadonlySet<string>;
  signedIn: boolean;
}) {
  const [thread] = useLiveData(loaded, feed);
  return (
    <MessageList
      messages={thread.messages}
      label="PorpChat messages"
      emptyText="No messages yet."
      isOwn={(message) => sentIds.has(message._id)}
      renderContent={(message) => <PorpMessageContent message={message} />}
      renderActions={(message) =>
        // Members flag what others posted; a visitor has no account to flag with.
        !signedIn || message.deleted || sentIds.has(message._id) ? null : (
          <FlagControl targetType="message" targetId={message._id} what={`the message by ${message.sender}`} />
        )
      }
    />
  );
}
