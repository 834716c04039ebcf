/** Business limits shared by the forms and the server (spec section 9, docs/product.md section 3). */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 30,
  emailMax: 254,
  passwordMin: 6,
  passwordMax: 128,
  titleMax: 100,
  questionTextMax: 30_000,
  answerTextMax: 30_000,
  commentMax: 1_000,
  bioMax: 1_000,
  messageMax: 2_000,
  forumNameMax: 100,
  forumDescriptionMax: 1_000,
  tagsMin: 1,
  tagsMax: 5,
  tagNameMax: 20,
  porpNameMax: 30,
  pageSizeDefault: 50,
  pageSizeMax: 100,
  /** The deepest `offset` the home list takes; later pages come by cursor (its X-Next-Cursor header). */
  listOffsetMax: 1_000,
  /** A search's X-Total-Count stops here; the list then says "1000+ questions". */
  searchCountCap: 1_000,
  /** A question page carries its first answers; the rest come this many at a time. */
  answerPageSize: 30,
  /** A question's `views` names its most recent viewers, at most this many; `viewCount` counts them all. */
  viewersShown: 100,
  /** An edit's optional 'Reason for edit' (docs/product.md section 9). */
  editReasonMax: 300,
  /** A flag's optional note, a suspension's reason (docs/product.md section 10). */
  flagNoteMax: 500,
  suspensionReasonMax: 500,
  /** A suspension lasts 1 to this many days, or (no days) for good. */
  suspensionDaysMax: 3_650,
  /** With NEW_ACCOUNT_APPROVAL, a member's posts wait for approval until this many were let through. */
  firstPostsApproved: 2,
  /** The review queue shows this many items, oldest first; the log this many entries a page. */
  queuePage: 50,
  logPage: 50,
  /** A post highlights (with 'Copy') at most its first this many code blocks; the rest are plain (docs/product.md section 8). */
  codeBlocksHighlighted: 50,
  /** A suggestion list (tags as one types, usernames: docs/product.md section 5) names at most this many. */
  suggestionsMax: 10,
  /** A post notifies at most this many accounts it mentions (docs/product.md section 11); later names stay text. */
  mentionsPerPost: 50,
  /** Images in posts (docs/product.md section 14): bytes and pixels accepted, the stored image's longest side, an animation's frames. */
  imageBytesMax: 5_242_880,
  imagePixelsMax: 40_000_000,
  imageSideMax: 2560,
  imageFramesMax: 300,
  /** What an upvote earns its post's author, and at most how much upvotes earn an account in a UTC day (docs/product.md section 13). */
  upvoteReputation: 10,
  upvoteReputationPerDay: 200,
  /** An admin's adjustment of reputation: a whole number of at most this size either way, and its reason's length. */
  reputationAdjustmentMax: 100_000,
  reputationNoteMax: 200,
  /** Members' votes that close an open question or reopen a closed one (docs/product.md section 13). */
  closeVotesToDecide: 3,
  /** A privilege's threshold, as an admin may set it. */
  privilegeThresholdMax: 1_000_000,
  /** The newest events a reputation history shows. */
  reputationHistory: 50,
  /** A page of notifications; markRead takes at most this many ids at once. */
  notificationsPageMax: 50,
  notificationsPageDefault: 20,
  /** A notification's excerpt of its post, in characters. */
  notificationSnippetMax: 140,
  /** An account follows at most this many tags (the 'My tags' list reads each one's newest). */
  followedTagsMax: 100,
} as const;

export const DEFAULT_TAG_DESCRIPTION = 'user added tag';
export const DEFAULT_OWN_BIO = 'This is your bio. Tell us something about yourself!';
export const DEFAULT_OTHER_BIO = 'No bio provided';
/** The fixed id of PorpChat's one public thread (docs/product.md section 4). */
export const PORPCHAT_THREAD_ID = 'porpchat';
