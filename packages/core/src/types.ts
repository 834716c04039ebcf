/** API shapes: what the server sends and the web app reads (spec section 3). */

export const COLOR_BLINDNESS = ['none', 'redgreen', 'blueyellow', 'grayscale'] as const;
export type ColorBlindness = (typeof COLOR_BLINDNESS)[number];

export const ORDERS = ['newest', 'unanswered', 'active', 'mostViewed'] as const;
export type Order = (typeof ORDERS)[number];

export interface AccessibilitySettings {
  lowVision: boolean;
  colorBlindness: ColorBlindness;
}

export interface Account {
  username: string;
  email: string;
  createdAt: string;
  accessibilitySettings: AccessibilitySettings;
  /** Whether the account has ever saved its accessibility settings (until then the settings screen shows them unchosen). */
  accessibilitySettingsSaved: boolean;
}

export interface Tag {
  name: string;
  description: string;
}

export interface TagWithCount extends Tag {
  qcnt: number;
}

export interface Comment {
  _id: string;
  text: string;
  commentBy: string;
  commentDateTime: string;
}

export interface Answer {
  _id: string;
  text: string;
  ansBy: string;
  ansDateTime: string;
  comments: Comment[];
}

/** A row of the home list: what a row shows, never answer bodies or comments. */
export interface QuestionSummary {
  _id: string;
  title: string;
  tags: Tag[];
  askedBy: string;
  askDateTime: string;
  answerCount: number;
  viewCount: number;
  voteCount: number;
  lastActivity: string;
}

export interface Question {
  _id: string;
  title: string;
  text: string;
  tags: Tag[];
  askedBy: string;
  askDateTime: string;
  /** The first LIMITS.answerPageSize answers, oldest first; the rest by GET /api/question/{qid}/answers. */
  answers: Answer[];
  /** How many answers the question has in all. */
  answerCount: number;
  upVotes: string[];
  downVotes: string[];
  /** Its most recent viewers (at most LIMITS.viewersShown), oldest of them first; the reader among them once they have viewed it. */
  views: string[];
  /** How many members have viewed it, in all. */
  viewCount: number;
  comments: Comment[];
}

export interface Message {
  _id: string;
  content: string;
  sender: string;
  messageDateTime: string;
  views: string[];
  likes: string[];
}

export interface Thread {
  _id: string;
  accounts: string[];
  messages: Message[];
  threadUpdatedDateTime: string;
}

export interface Forum {
  _id: string;
  name: string;
  description: string;
  thread: string;
}

export interface Profile {
  username: string;
  bio: string;
}

export interface ApiError {
  error: string;
}
