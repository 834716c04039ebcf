import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveData, useLiveFeed } from '@/hooks/use-live-data';
import { useSocketEvent } from '@/hooks/use-live-events';
import { announce, writtenSince } from '@/lib/announcer';
import {
  MESSAGES,
  type Answer,
  type Closed,
  type Comment,
  type HeldFor,
  type ImageSize,
  type PostKind,
  type Question,
} from '@porpoise/core';
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

/** A post with an edit's text and the sizes of the images that text embeds (none when the edit has no `images`). */
function withText<T extends { text: string; images?: ImageSize[] }>(post: T, text: string, images?: ImageSize[]): T {
  const { images: _before, ...rest } = post;
  return (images === undefined ? { ...rest, text } : { ...rest, text, images }) as T;
}

/** A post marked deleted (held, and why: docs/product.md section 10), or its marks taken off. */
function marked<T extends { deleted?: true; held?: HeldFor }>(item: T, deleted: boolean, held?: HeldFor): T {
  const { deleted: _mark, held: _held, ...rest } = item;
  if (deleted) return { ...rest, deleted: true, ...(held === undefined ? {} : { held }) } as T;
  return rest as T;
}

/** The comments with one deleted (kept marked if `keeps` says its author's is seen, else gone) or undeleted. */
function commentsWith(
  comments: Comment[],
  id: string,
  deleted: boolean,
  keeps: (author: string) => boolean,
  held?: HeldFor,
) {
  if (!comments.some((comment) => comment._id === id)) return comments;
  return comments.flatMap((comment) => {
    if (comment._id !== id) return [comment];
    return !deleted || keeps(comment.commentBy) ? [marked(comment, deleted, held)] : [];
  });
}

/**
 * A post deleted or undeleted (docs/product.md section 9): whoever may see deleted posts (their
 * author, moderators) keeps it, marked; anyone else loses it. An undeleted post loses its
 * mark; one this page never had comes back by its own update.
 */
export function withDeletion(
  question: Question,
  post: PostKind,
  id: string,
  deleted: boolean,
  keeps: (author: string) => boolean,
  held?: HeldFor,
): Question {
  switch (post) {
    case 'question':
      return id === question._id ? marked(question, deleted, held) : question;
    case 'answer':
      return {
        ...question,
        answers: question.answers.flatMap((answer) => {
          if (answer._id !== id) return [answer];
          return !deleted || keeps(answer.ansBy) ? [marked(answer, deleted, held)] : [];
        }),
      };
    case 'comment':
      return {
        ...question,
        comments: commentsWith(question.comments, id, deleted, keeps, held),
        answers: question.answers.map((answer) => {
          const comments = commentsWith(answer.comments, id, deleted, keeps, held);
          return comments === answer.comments ? answer : { ...answer, comments };
        }),
      };
  }
}

/**
 * A new answer: counted, and shown once every earlier answer is (otherwise the reader
 * reaches it by loading more, as it is the newest).
 */
function withAnswer(question: Question, answer: Answer): Question {
  // A known answer was edited (or undeleted): its new text (its comments and votes come with their own events).
  if (question.answers.some((existing) => existing._id === answer._id)) {
    return {
      ...question,
      answers: question.answers.map((existing) =>
        existing._id === answer._id
          ? { ...withText(existing, answer.text, answer.images), editedAt: answer.editedAt, editedBy: answer.editedBy }
          : existing,
      ),
    };
  }
  const allShown = shownAnswers(question) >= question.answerCount;
  return {
    ...question,
    answers: allShown ? [...question.answers, answer] : question.answers,
    answerCount: question.answerCount + 1,
  };
}

/** The answers loaded that count (a deleted one, shown to its author and moderators, does not). */
const shownAnswers = (question: Question) => question.answers.filter((answer) => answer.deleted !== true).length;

/**
 * The question page's data, kept current by the question events (spec section 4): new
 * answers and comments appended, views and votes replaced, an edited title or tags taken,
 * deleted posts dropped (or marked, for whoever `seesDeleted` says may see them), closing
 * shown. Mount it with a key per question id. A new answer by someone other than `reader` is
 * announced (docs/product.md section 12).
 */
export function useLiveQuestion(initial: Question, seesDeleted: (author: string) => boolean, reader: string) {
  const socket = useSocket();
  const qid = initial._id;
  // Posts deleted while this page is open (`answer:{id}`, `comment:{id}`): an update read
  // before the deletion but arriving after it must not bring one back (an undelete does).
  const [gone] = useState(() => new Set<string>());
  // One frame may carry several questions' views (a socket that also shows a list): each applies in turn.
  const feed = useLiveFeed<Question>({
    questionUpdate: (current, summary) =>
      summary._id === qid
        ? { ...current, title: summary.title, tags: summary.tags, answerCount: summary.answerCount }
        : current,
    answerUpdate: (current, { qid: id, answer }) =>
      id === qid && !gone.has(`answer:${answer._id}`) ? withAnswer(current, answer) : current,
    questionEditUpdate: (current, edit) =>
      edit.qid === qid
        ? {
            ...withText(current, edit.text, edit.images),
            title: edit.title,
            tags: edit.tags,
            editedAt: edit.editedAt,
            editedBy: edit.editedBy,
          }
        : current,
    viewsUpdate: (current, { qid: id, views, viewCount }) => (id === qid ? { ...current, views, viewCount } : current),
    voteUpdate: (current, { qid: id, upVotes, downVotes }) =>
      id === qid ? { ...current, upVotes, downVotes } : current,
    commentUpdate: (current, { result, type }) =>
      result.qid === qid && !gone.has(`comment:${result.comment._id}`)
        ? withComment(current, type, result.parentId, result.comment)
        : current,
    answerVoteUpdate: (current, { qid: id, aid, upVotes, downVotes }) =>
      id === qid
        ? { ...current, answers: current.answers.map((a) => (a._id === aid ? { ...a, upVotes, downVotes } : a)) }
        : current,
    acceptUpdate: (current, { qid: id, acceptedAnswer }) => (id === qid ? { ...current, acceptedAnswer } : current),
    deleteUpdate: (current, { qid: id, post, id: postId, deleted, held }) => {
      if (id !== qid) return current;
      if (deleted) gone.add(`${post}:${postId}`);
      else gone.delete(`${post}:${postId}`);
      return withDeletion(current, post, postId, deleted, seesDeleted, held);
    },
    // A change of state clears the votes waiting for it; a vote short of one counts.
    closeUpdate: (current, { qid: id, closed }) => (id === qid ? { ...current, closed, closeVotes: 0 } : current),
    closeVoteUpdate: (current, { qid: id, closed, closeVotes }) =>
      id === qid ? { ...current, closed, closeVotes } : current,
  });
  const [question, setQuestion] = useLiveData(initial, feed);

  // Answers this page has had (shown at first or loaded since): an update of one is an edit,
  // not news. A new answer has never been edited, and was written after the page opened: an
  // old one shown again (undeleted, approved) is not announced either.
  const known = useRef<Set<string> | null>(null);
  known.current ??= new Set(initial.answers.map((answer) => answer._id));
  const [openedAt] = useState(Date.now);
  useSocketEvent('answerUpdate', ({ qid: id, answer }) => {
    if (id !== qid || known.current!.has(answer._id)) return;
    known.current!.add(answer._id);
    const fresh = answer.editedAt === null && writtenSince(answer.ansDateTime, openedAt);
    if (answer.ansBy !== reader && fresh) announce('answer', answer.ansBy);
  });

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
  const moreAnswers = last !== undefined && shownAnswers(question) < question.answerCount;

  /** Loads the next page of answers, after the last one shown. */
  const loadMoreAnswers = useCallback(async () => {
    if (loading.current || last === undefined) return;
    loading.current = true;
    setLoadingAnswers(true);
    setAnswersError(null);
    try {
      const page = await getAnswerPage(qid, last);
      for (const answer of page) known.current!.add(answer._id);
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

  /** Shows a deletion or an undeletion the server has just made, without waiting for its deleteUpdate. */
  const setDeleted = useCallback(
    (post: PostKind, id: string, deleted: boolean) =>
      setQuestion((current) => withDeletion(current, post, id, deleted, () => true)),
    [setQuestion],
  );

  /** Shows a closing (or reopening: null) the server has just made, and the votes then waiting (none by default). */
  const setClosed = useCallback(
    (closed: Closed | null, closeVotes = 0) => setQuestion((current) => ({ ...current, closed, closeVotes })),
    [setQuestion],
  );

  return {
    question,
    addLocalComment,
    setAccepted,
    setDeleted,
    setClosed,
    moreAnswers,
    loadMoreAnswers,
    loadingAnswers,
    answersError,
  };
}
