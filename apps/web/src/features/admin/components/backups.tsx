import { useEffect, useState } from 'react';
import { formatFullTime, MESSAGES } from '@porpoise/core';
import type { BackupList } from '@porpoise/core/contract';
import { formatCount } from '@/lib/numbers';
import { userFacingError } from '@/lib/api-client';
import { backupDownloadUrl, listBackups, runBackup } from '../api/backups';

/** While a backup runs, the list is read again this often, until it is written. */
const RUNNING_REFRESH_MS = 2_000;

function formatSize(bytes: number): string {
  if (bytes < 1_024 * 1_024) return `${formatCount(Math.max(1, Math.round(bytes / 1_024)))} kB`;
  return `${(bytes / (1_024 * 1_024)).toFixed(1)} MB`;
}

/**
 * The admin's 'Backups' (docs/product.md section 15): the server's daily backups in BACKUP_DIR,
 * each downloadable (a link, so the browser writes it to disk as it arrives), and 'Back up now'.
 * Without BACKUP_DIR it says how to have them.
 */
export function Backups({ initial }: { initial: BackupList }) {
  const [list, setList] = useState(initial);
  const [error, setError] = useState('');
  const [starting, setStarting] = useState(false);

  // Read again while one runs, so it appears when written.
  useEffect(() => {
    if (list.running === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      listBackups(controller.signal).then(
        (next) => {
          setError('');
          setList(next);
        },
        (cause: unknown) => {
          if (controller.signal.aborted) return;
          setError(userFacingError(cause, MESSAGES.unavailable));
          // Asked again: the list stays live while the backup runs.
          setList((current) => ({ ...current }));
        },
      );
    }, RUNNING_REFRESH_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [list]);

  async function backUpNow() {
    setError('');
    setStarting(true);
    try {
      await runBackup();
    } catch (cause) {
      setError(userFacingError(cause, MESSAGES.unavailable));
    }
    try {
      setList(await listBackups());
    } catch (cause) {
      setError(userFacingError(cause, MESSAGES.unavailable));
    } finally {
      setStarting(false);
    }
  }

  return (
    <section className="card profile-section backups" aria-labelledby="backups-title">
      <h2 id="backups-title" className="profile-section__title">
        Backups
      </h2>
      {!list.scheduled ? (
        <p className="muted">
          The server keeps no backups of its own: set <code>BACKUP_DIR</code> for a daily backup, the 7 newest kept.
          Until then, run <code>npm run backup</code> on the server&apos;s machine.
        </p>
      ) : (
        <>
          <p className="muted">
            A backup is taken every day; the 7 newest are kept. Each holds every account&apos;s password hash and email:
            keep downloads safe.
          </p>
          {list.backups.length === 0 ? (
            <p>No backups yet.</p>
          ) : (
            <ul className="backups__list" aria-label="Backups, newest first">
              {list.backups.map((backup) => (
                <li key={backup.name} className="backups__item">
                  <a href={backupDownloadUrl(backup.name)} download={backup.name} className="backups__name">
                    {backup.name}
                  </a>
                  <span className="muted">
                    Taken {formatFullTime(new Date(backup.createdAt))} · {formatCount(backup.questions)}{' '}
                    {backup.questions === 1 ? 'question' : 'questions'} · {formatCount(backup.images)}{' '}
                    {backup.images === 1 ? 'image' : 'images'} · {formatSize(backup.size)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p className="form-notice" role="status">
            {list.running
              ? `A backup is being written (started ${formatFullTime(new Date(list.running.startedAt))}).`
              : ''}
          </p>
          {list.lastFailure && (
            <p className="inline-error">
              The last backup failed ({formatFullTime(new Date(list.lastFailure.at))}): {list.lastFailure.message}
            </p>
          )}
          {error && <p className="inline-error">{error}</p>}
          <div className="button-row">
            <button
              type="button"
              className="button"
              onClick={() => void backUpNow()}
              disabled={starting || list.running !== null}
            >
              Back up now
            </button>
          </div>
        </>
      )}
    </section>
  );
}
