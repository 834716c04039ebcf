// A process that takes data directories' locks when told (data-dir-takeover.test.ts forks
// several, to race for one lock). Each message names a directory; the answer says whether
// lockDataDir took it ('won'), refused it ('locked'), or failed. Locks taken are held until
// the process ends.
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';

export interface LockTakerReply {
  dir: string;
  result: 'won' | 'locked' | `error: ${string}`;
}

const send = (message: LockTakerReply | 'ready') => process.send?.(message);

process.on('message', (dir: string) => {
  try {
    lockDataDir(dir);
    send({ dir, result: 'won' });
  } catch (error) {
    send({ dir, result: error instanceof DataDirLockedError ? 'locked' : `error: ${(error as Error).message}` });
  }
});
send('ready');
