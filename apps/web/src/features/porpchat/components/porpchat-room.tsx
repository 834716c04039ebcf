import { useState } from 'react';
import { useLiveEvents } from '@/hooks/use-live-events';
import { withMessage } from '@/lib/threads';
import { Link } from 'react-router';
import { MESSAGES, PORPCHAT_THREAD_ID } from '@porpoise/core';
import { MessageComposer } from '@/components/message-composer';
import { MessageList } from '@/components/message-list';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { userFacingError } from '@/lib/api-client';
import { getPorpchatThread, postPorpMessage } from '../api/porpchat-api';
import { readSentIds, rememberSentId } from '../sent-messages';
import { PorpMessageContent } from './porp-message-content';

/**
 * The one public room (spec: /porpchat): its history, messages arriving live over the
 * app's socket (which anonymous visitors have too) and a send box under the typed name.
 * Messages this tab posted are its own ('(you)'), whatever name another visitor types.
 */
export function PorpchatRoom({ name }: { name: string | null }) {
  const [thread, update] = useRemoteData(PORPCHAT_THREAD_ID, (signal) => getPorpchatThread(signal));
  const [sentIds, setSentIds] = useState(readSentIds);
  useLiveEvents(update, {
    messageUpdate: (current, { result }) =>
      result.tid === PORPCHAT_THREAD_ID ? withMessage(current, result.message) : current,
  });

  if (name === null) return <p className="inline-error">{MESSAGES.porpContextNull}</p>;

  async function send(content: string): Promise<string | null> {
    if (name === null) return MESSAGES.porpContextNull;
    try {
      const message = await postPorpMessage(name, content);
      setSentIds(rememberSentId(message._id));
      update((current) => withMessage(current, message));
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
      {thread.status === 'loading' ? (
        <p className="muted" role="status">
          Loading messages…
        </p>
      ) : null}
      {thread.status === 'error' ? <p className="empty-state">No messages found!</p> : null}
      {thread.status === 'ready' ? (
        <MessageList
          messages={thread.data.messages}
          label="PorpChat messages"
          emptyText="No messages yet."
          isOwn={(message) => sentIds.has(message._id)}
          renderContent={(message) => <PorpMessageContent message={message} />}
        />
      ) : null}
      <MessageComposer label="Message" placeholder="Say something nice!" buttonLabel="Send" onSend={send} />
    </div>
  );
}
