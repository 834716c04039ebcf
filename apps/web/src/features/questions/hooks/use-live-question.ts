import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MESSAGES,
  SOCKET_EVENTS,
  type Answer,
  type Comment,
  type Question,
  type QuestionSummary,
} from '@porpoise/core';
import { userFacingError } from '@/lib/api-client';
import { useSocket } from '@/lib/socket';
import { getAnswerPage } from '../api/get-question';
import { appendOnce, type AnswerUpdate, type CommentUpdate, type ViewsUpdate, type VoteUpdate } from '../live-events';

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
  if (question.answers.some((existing) => existing._id === answer._id)) return question;
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
  const [question, setQuestion] = useState(initial);
  const qid = initial._id;

  useEffect(() => {
    const mine = (id: string) => id === qid;
    const onQuestion = (summary: QuestionSummary) => {
      if (mine(summary._id)) setQuestion((current) => ({ ...current, title: summary.title, tags: summary.tags }));
    };
    const onAnswer = ({ qid: id, answer }: AnswerUpdate) => {
      if (mine(id)) setQuestion((current) => withAnswer(current, answer));
    };
    // One frame may carry several questions' views (a socket that also shows a list).
    const onViews = (...updates: ViewsUpdate[]) => {
      const update = updates.find(({ qid: id }) => mine(id));
      if (update) setQuestion((current) => ({ ...current, views: update.views, viewCount: update.viewCount }));
    };
    const onVote = ({ qid: id, upVotes, downVotes }: VoteUpdate) => {
      if (mine(id)) setQuestion((current) => ({ ...current, upVotes, downVotes }));
    };
    const onComment = ({ result, type }: CommentUpdate) => {
      if (mine(result.qid)) setQuestion((current) => withComment(current, type, result.parentId, result.comment));
    };
    socket.on(SOCKET_EVENTS.questionUpdate, onQuestion);
    socket.on(SOCKET_EVENTS.answerUpdate, onAnswer);
    socket.on(SOCKET_EVENTS.viewsUpdate, onViews);
    socket.on(SOCKET_EVENTS.voteUpdate, onVote);
    socket.on(SOCKET_EVENTS.commentUpdate, onComment);
    return () => {
      socket.off(SOCKET_EVENTS.questionUpdate, onQuestion);
      socket.off(SOCKET_EVENTS.answerUpdate, onAnswer);
      socket.off(SOCKET_EVENTS.viewsUpdate, onViews);
      socket.off(SOCKET_EVENTS.voteUpdate, onVote);
      socket.off(SOCKET_EVENTS.commentUpdate, onComment);
    };
  }, [socket, qid]);

  useEffect(() => {
    socket.showQuestions([qid]);
    return () => socket.showQuestions([]);
  }, [socket, qid]);

  /** Shows a comment the server has just accepted, without waiting for its commentUpdate. */
  const addLocalComment = useCallback(
    (type: CommentUpdate['type'], parentId: string, comment: Comment) =>
      setQuestion((current) => withComment(current, type, parentId, comment)),
    [],
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
  }, [qid, last]);

  return { question, addLocalComment, moreAnswers, loadMoreAnswers, loadingAnswers, answersError };
}
