import type { SocketPayloads } from '@porpoise/core/contract';

const at = '2026-01-01T00:00:00.000Z';

/** Socket payloads of the contract's shapes, for tests of delivery (who hears what). */
export const summary = (id: string): SocketPayloads['questionUpdate'] => ({
  _id: id,
  title: `Question ${id}`,
  tags: [],
  askedBy: 'someone',
  askDateTime: at,
  answerCount: 0,
  viewCount: 0,
  voteCount: 0,
  lastActivity: at,
  acceptedAnswer: null,
});

export const forum = (id: string): SocketPayloads['forumUpdate'] => ({
  _id: id,
  name: `Forum ${id}`,
  description: 'About it',
  thread: '',
});

export const thread = (id: string): SocketPayloads['threadUpdate'] => ({
  _id: id,
  accounts: [],
  messages: [],
  threadUpdatedDateTime: at,
});

export const porpchatMessage = (content: string): SocketPayloads['messageUpdate'] => ({
  result: {
    tid: 'porpchat',
    message: { _id: '1', content, sender: 'visitor', messageDateTime: at, views: [], likes: [] },
  },
});
