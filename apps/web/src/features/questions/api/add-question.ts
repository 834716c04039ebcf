import type { Question } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

export interface AddQuestionInput {
  title: string;
  text: string;
  tagNames: string[];
  askedBy: string;
}

/** Asks a question (spec section 7's payload); new tags get their description on the server. */
export function addQuestion({ title, text, tagNames, askedBy }: AddQuestionInput): Promise<Question> {
  return callApi('POST /addQuestion', {
    body: {
      title,
      text,
      tags: tagNames.map((name) => ({ name, description: '' })),
      askedBy,
      askDateTime: new Date().toISOString(),
      answers: [],
      answerCount: 0,
      upVotes: [],
      downVotes: [],
      views: [],
      comments: [],
    },
  });
}
