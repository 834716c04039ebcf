import { useCallback, useEffect, useState } from 'react';
import type { SocketPayloads } from '@porpoise/core/contract';
import { Link } from 'react-router';
import { MESSAGES, PORPCHAT_THREAD_ID, SOCKET_EVENTS, type Message } from '@porpoise/core';
import { MessageComposer } from '@/components/message-composer';
import { MessageList } from '@/components/message-list';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { userFacingError } from '@/lib/api-client';
import { useSocket } from '@/lib/socket';
import { getPorpchatThread, postPorpMessage } from '../api/porpchat-api';
import { readSentIds, rememberSentId } from '../sent-messages';
import { PorpMessageContent } from './porp-message-content';

type MessageUpdate = SocketPayloads['messageUpdate'];

/**
 * The one public room (spec: /porpchat): its history, messages arriving live over the
 * app's socket (which anonymous visitors have too) and a send box under the typed name.
 * Messages this tab posted are its own ('(you)'), whatever name another visitor types.
 */
export function PorpchatRoom({ name }: { name: string | null }) {
  const socket = useSocket();
  const [thread, update] = useRemoteData(PORPCHAT_THREAD_ID, (signal) => getPorpchatThread(signal));
  const [sentIds, setSentIds] = useState(readSentIds);

  const append = useCallback(
    (message: Message) =>
      update((current) =>
        current.messages.some((known) => known._id === message._id)
          ? current
          : { ...current, messages: [...current.messages, message] },
      ),
    [update],
  );

  useEffect(() => {
    function handleMessageUpdate({ result }: MessageUpdate) {
      if (result.tid === PORPCHAT_THREAD_ID) append(result.message);
    }
    socket.on(SOCKET_EVENTS.messageUpdate, handleMessageUpdate);
    return () => {
      socket.off(SOCKET_EVENTS.messageUpdate, handleMessageUpdate);
    };
  }, [socket, append]);

  if (name === null) return <p className="inline-error">{MESSAGES.porpContextNull}</p>;

  async function send(content: string): Promise<string | null> {
    if (name === null) return MESSAGES.porpContextNull;
    try {
      const message = await postPorpMessage(name, content);
      setSentIds(rememberSentId(message._id));
      append(message);
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
