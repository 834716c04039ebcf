import { useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { addThread } from '../api/add-thread';
import { getThreads } from '../api/get-threads';

/** The direct thread between `own` and `other` among own's threads, if it is there. */
async function findThreadWith(own: string, other: string): Promise<string | null> {
  const name = other.toLowerCase();
  const threads = await getThreads(own);
  return threads.find((thread) => thread.accounts.some((account) => account.toLowerCase() === name))?._id ?? null;
}

/**
 * Another member's profile's 'Message' button (docs/product.md section 5): opens the direct
 * thread with them, starting it first when there is none. `threadId` is the one the
 * profile knew of; a thread started meanwhile (another tab) is looked up instead.
 */
export function MessageButton({ own, other, threadId }: { own: string; other: string; threadId: string | null }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    if (pending) return;
    if (threadId !== null) return navigate(paths.thread(threadId));
    setPending(true);
    setError(null);
    try {
      const thread = await addThread(own, other).catch(async (cause: unknown) => {
        const existing = await findThreadWith(own, other).catch(() => null);
        if (existing === null) throw cause;
        return { _id: existing };
      });
      await navigate(paths.thread(thread._id));
    } catch (cause) {
      setError(userFacingError(cause, MESSAGES.threadFailed));
      setPending(false);
    }
  }

  return (
    <div className="message-button">
      <button type="button" className="button button--primary" aria-disabled={pending} onClick={() => void open()}>
        Message
      </button>
      {error === null ? null : (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
