import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveData, useLiveFeed } from '@/hooks/use-live-data';
import { MESSAGES, type Answer, type Comment, type Question } from '@porpoise/core';
import { userFacingError } from '@/lib/api-client';
import { useSocket } from '@/lib/socket';
import { getAnswerPage } from '../api/get-question';
import { appendOnce, type CommentUpdate } from '../live-events';

/** Puts a comment under the question itself or under one of its answers, once. */
function withComment(question: Question, type: CommentUpdate['type'], parentId: string, comment: Comment): Question {
  if (type === 'question') {
    return parentId === question._id ? { ...question, comments: appendOnce(question.comments, comment) } : question;
  }
  return {
    ...question,
    answers: question.answers.map((answer) =>
      answer._id === parentId ? { ...answer, comments: appendOnce(answer.comments, comment) } : answer,
    ),
  };
}

/**
 * A new answer: counted, and shown once every earlier answer is (otherwise the reader
 * reaches it by loading more, as it is the newest).
 */
function withAnswer(question: Question, answer: Answer): Question {
  // A known answer was edited: its new text (its comments and votes come with their own events).
  if (question.answers.some((existing) => existing._id === answer._id)) {
    return {
      ...question,
      answers: question.answers.map((existing) =>
        existing._id === answer._id
          ? { ...existing, text: answer.text, editedAt: answer.editedAt, editedBy: answer.editedBy }
          : existing,
      ),
    };
  }
  const allShown = question.answers.length >= question.answerCount;
  return {
    ...question,
    answers: allShown ? [...question.answers, answer] : question.answers,
    answerCount: question.answerCount + 1,
  };
}

/**
 * The question page's data, kept current by the question events (spec section 4): new
 * answers and comments appended, views and votes replaced, an edited title or tags taken.
 * Mount it with a key per question id.
 */
export function useLiveQuestion(initial: Question) {
  const socket = useSocket();
  const qid = initial._id;
  // One frame may carry several questions' views (a socket that also shows a list): each applies in turn.
  const feed = useLiveFeed<Question>({
    questionUpdate: (current, summary) =>
      summary._id === qid ? { ...current, title: summary.title, tags: summary.tags } : current,
    answerUpdate: (current, { qid: id, answer }) => (id === qid ? withAnswer(current, answer) : current),
    questionEditUpdate: (current, edit) =>
      edit.qid === qid
        ? {
            ...current,
            title: edit.title,
            text: edit.text,
            tags: edit.tags,
            editedAt: edit.editedAt,
            editedBy: edit.editedBy,
          }
        : current,
    viewsUpdate: (current, { qid: id, views, viewCount }) => (id === qid ? { ...current, views, viewCount } : current),
    voteUpdate: (current, { qid: id, upVotes, downVotes }) =>
      id === qid ? { ...current, upVotes, downVotes } : current,
    commentUpdate: (current, { result, type }) =>
      result.qid === qid ? withComment(current, type, result.parentId, result.comment) : current,
    answerVoteUpdate: (current, { qid: id, aid, upVotes, downVotes }) =>
      id === qid
        ? { ...current, answers: current.answers.map((a) => (a._id === aid ? { ...a, upVotes, downVotes } : a)) }
        : current,
    acceptUpdate: (current, { qid: id, acceptedAnswer }) => (id === qid ? { ...current, acceptedAnswer } : current),
  });
  const [question, setQuestion] = useLiveData(initial, feed);

  useEffect(() => {
    socket.showQuestions([qid]);
    return () => socket.showQuestions([]);
  }, [socket, qid]);

  /** Shows a comment the server has just accepted, without waiting for its commentUpdate. */
  const addLocalComment = useCallback(
    (type: CommentUpdate['type'], parentId: string, comment: Comment) =>
      setQuestion((current) => withComment(current, type, parentId, comment)),
    [setQuestion],
  );

  const [loadingAnswers, setLoadingAnswers] = useState(false);
  const [answersError, setAnswersError] = useState<string | null>(null);
  const loading = useRef(false);
  const last = question.answers.at(-1)?._id;
  const moreAnswers = last !== undefined && question.answers.length < question.answerCount;

  /** Loads the next page of answers, after the last one shown. */
  const loadMoreAnswers = useCallback(async () => {
    if (loading.current || last === undefined) return;
    loading.current = true;
    setLoadingAnswers(true);
    setAnswersError(null);
    try {
      const page = await getAnswerPage(qid, last);
      setQuestion((current) => {
        const answers = page.reduce<Answer[]>(appendOnce, current.answers);
        // An empty page means there is no more, whatever the count said.
        return { ...current, answers, answerCount: page.length === 0 ? answers.length : current.answerCount };
      });
    } catch (error) {
      setAnswersError(userFacingError(error, MESSAGES.unavailable));
    } finally {
      loading.current = false;
      setLoadingAnswers(false);
    }
  }, [qid, last, setQuestion]);

  /** Shows the accepted answer the server has just answered with, without waiting for its acceptUpdate. */
  const setAccepted = useCallback(
    (acceptedAnswer: string | null) => setQuestion((current) => ({ ...current, acceptedAnswer })),
    [setQuestion],
  );

  return { question, addLocalComment, setAccepted, moreAnswers, loadMoreAnswers, loadingAnswers, answersError };
}
