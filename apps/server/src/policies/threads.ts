export type ThreadKind = 'direct' | 'forum' | 'porpchat';

/** What the policy (authorize.ts) needs to know about a thread. */
export interface ThreadAccess {
  id: number;
  kind: ThreadKind;
  participantIds: number[];
}
