import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveEvents } from '@/hooks/use-live-events';
import { LIMITS, MESSAGES, type QuestionSummary } from '@porpoise/core';
import { useSocket } from '@/lib/socket';
import { userFacingError } from '@/lib/api-client';
import { getQuestions, type QuestionPage } from '../api/get-questions';
import type { HomeQuery } from '../home-query';
import {
  appendOnce,
  applyAcceptUpdate,
  applyAnswerUpdate,
  applyDeleteUpdate,
  applyQuestionUpdate,
  applyViewsUpdate,
  applyVoteUpdate,
  type ListState,
} from '../live-events';

export const PAGE_SIZE = LIMITS.pageSizeDefault;

/**
 * The home list from the loader's first page on: further pages on request, and the
 * question events applied as they arrive. Mount it with a key per query so that a new
 * URL starts from that URL's first page.
 */
export function useQuestionList(query: HomeQuery, firstPage: QuestionPage, followedTags: readonly string[] = []) {
  const socket = useSocket();
  const [state, setState] = useState<ListState>(firstPage);
  const [nextCursor, setNextCursor] = useState(firstPage.nextCursor);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const loading = useRef(false);
  const queryRef = useRef(query);

  useEffect(() => {
    queryRef.current = query;
  }, [query]);

  // A list hears the view counts of all its questions that changed in the same second in one frame.
  useLiveEvents(setState, {
    questionUpdate: (current, question) => applyQuestionUpdate(current, question, query, followedTags),
    answerUpdate: (current, update) => applyAnswerUpdate(current, update, query),
    viewsUpdate: applyViewsUpdate,
    voteUpdate: applyVoteUpdate,
    acceptUpdate: applyAcceptUpdate,
    deleteUpdate: applyDeleteUpdate,
  });

  // The server sends a question's votes, views and answers only to the sockets that show it.
  const shownIds = state.questions.map((question) => question._id).join(',');
  useEffect(() => {
    socket.showQuestions(shownIds === '' ? [] : shownIds.split(','));
    return () => socket.showQuestions([]);
  }, [socket, shownIds]);

  const hasMore = nextCursor !== null && state.questions.length < state.total;

  const loadMore = useCallback(async () => {
    if (loading.current || nextCursor === null) return;
    loading.current = true;
    setLoadingMore(true);
    setLoadError(null);
    try {
      // The page after the last one loaded, by its cursor: never an offset, which stops
      // at LIMITS.listOffsetMax and which live inserts shift.
      const page = await getQuestions({ ...queryRef.current, limit: PAGE_SIZE, cursor: nextCursor });
      setState((current) => ({
        // A question that moved in the order (a new answer in 'active') can come twice: keep the first.
        questions: page.questions.reduce<QuestionSummary[]>(appendOnce, current.questions),
        total: page.total,
      }));
      setNextCursor(page.nextCursor);
    } catch (error) {
      setLoadError(userFacingError(error, MESSAGES.unavailable));
    } finally {
      loading.current = false;
      setLoadingMore(false);
    }
  }, [nextCursor]);

  return { questions: state.questions, total: state.total, hasMore, loadMore, loadingMore, loadError };
}
