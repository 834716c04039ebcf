import type { z } from 'zod';
import type {
  accessibilitySettingsSchema,
  accountSchema,
  answerSchema,
  apiErrorSchema,
  commentSchema,
  forumSchema,
  messageSchema,
  notificationSchema,
  profileSchema,
  profileDetailSchema,
  questionSchema,
  closedSchema,
  questionSummarySchema,
  reputationEventSchema,
  privilegeSchema,
  userReputationSchema,
  tagSchema,
  tagWithCountSchema,
  tagSuggestionSchema,
  threadSchema,
  userAnswerSchema,
  userSuggestionSchema,
  userSummarySchema,
} from './contract.ts';

/** API shapes: what the server sends and the web app reads (spec section 3). */
// The API's shapes, inferred from the contract's schemas (contract.ts): declared once there.
export type AccessibilitySettings = z.output<typeof accessibilitySettingsSchema>;
export type Account = z.output<typeof accountSchema>;
export type UserSummary = z.output<typeof userSummarySchema>;
export type ReputationEvent = z.output<typeof reputationEventSchema>;
export type Privilege = z.output<typeof privilegeSchema>;
export type UserReputation = z.output<typeof userReputationSchema>;
export type Tag = z.output<typeof tagSchema>;
export type TagWithCount = z.output<typeof tagWithCountSchema>;
export type Comment = z.output<typeof commentSchema>;
export type Answer = z.output<typeof answerSchema>;
/** An answer on its author's profile, with its question. */
export type UserAnswer = z.output<typeof userAnswerSchema>;
/** A row of the home list: what a row shows, never answer bodies or comments. */
export type QuestionSummary = z.output<typeof questionSummarySchema>;
export type Question = z.output<typeof questionSchema>;
export type Closed = z.output<typeof closedSchema>;
export type Message = z.output<typeof messageSchema>;
export type Notification = z.output<typeof notificationSchema>;
export type Thread = z.output<typeof threadSchema>;
export type Forum = z.output<typeof forumSchema>;
export type Profile = z.output<typeof profileSchema>;
export type ProfileDetail = z.output<typeof profileDetailSchema>;
export type TagSuggestion = z.output<typeof tagSuggestionSchema>;
export type UserSuggestion = z.output<typeof userSuggestionSchema>;
export type ApiError = z.output<typeof apiErrorSchema>;
