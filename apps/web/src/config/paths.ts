/**
 * Every route of the app in one place (spec section 2 plus /login). Each entry is a
 * function building the href (`paths.question(qid)`) that also carries the router
 * pattern (`paths.question.pattern`), so links and routes cannot drift apart.
 */

type PathBuilder<Args extends unknown[]> = ((...args: Args) => string) & { readonly pattern: string };

function route<Args extends unknown[]>(pattern: string, build: (...args: Args) => string): PathBuilder<Args> {
  return Object.assign(build, { pattern });
}

/** Appends the non-empty entries as a query string. */
function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

const segment = (value: string) => encodeURIComponent(value);

/** The / and /login query parameter naming the page that sent the user to sign in (docs/product.md section 2). */
export const REDIRECT_PARAM = 'redirectTo';

export interface HomeQuery {
  search?: string;
  tag?: string;
  order?: string;
  /** 'true': only questions in the tags the member follows (docs/product.md section 11). */
  myTags?: 'true';
}

export const paths = {
  /** With `redirectTo`: the signed-in page a signed-out visitor was sent away from. */
  landing: route('/', (redirectTo?: string) => withQuery('/', { [REDIRECT_PARAM]: redirectTo })),
  porp: route('/porp', () => '/porp'),
  register: route('/register', () => '/register'),
  login: route('/login', (redirectTo?: string) => withQuery('/login', { [REDIRECT_PARAM]: redirectTo })),
  porpchat: route('/porpchat', () => '/porpchat'),
  forgotPassword: route('/forgot-password', () => '/forgot-password'),
  /** The page a password reset mail links to, with its token. */
  resetPassword: route('/reset-password', (token: string) => withQuery('/reset-password', { token })),
  /** The page a new-email mail links to, with its token. */
  confirmEmail: route('/confirm-email', (token: string) => withQuery('/confirm-email', { token })),
  /** The page an email digest's unsubscribe link opens, with its token (docs/product.md section 11). */
  unsubscribe: route('/unsubscribe', (token: string) => withQuery('/unsubscribe', { token })),
  home: route('/home', (query: HomeQuery = {}) => withQuery('/home', { ...query })),
  tags: route('/tags', () => '/tags'),
  forums: route('/forums', () => '/forums'),
  // The id is optional in the pattern so a bare /question reaches its loader, which sends it to /home.
  question: route('/question/:qid?', (qid: string) => `/question/${segment(qid)}`),
  newQuestion: route('/new/question', () => '/new/question'),
  newAnswer: route('/new/answer/:qid', (qid: string) => `/new/answer/${segment(qid)}`),
  profile: route('/profile', () => '/profile'),
  /** The member's inbox (docs/product.md section 11). */
  notifications: route('/notifications', () => '/notifications'),
  userProfile: route('/profile/:username', (username: string) => `/profile/${segment(username)}`),
  threads: route('/threads', () => '/threads'),
  newThread: route('/new/thread', () => '/new/thread'),
  thread: route('/threads/:tid', (tid: string) => `/threads/${segment(tid)}`),
  newForum: route('/new/forum', () => '/new/forum'),
  accessibilitySettings: route('/accessibility-settings', () => '/accessibility-settings'),
  /** What reputation unlocks, and how far the member is from each privilege (docs/product.md section 13). */
  privileges: route('/help/privileges', () => '/help/privileges'),
  adminUsers: route('/admin/users', () => '/admin/users'),
  /** The same admin page, by the name docs/product.md section 15 gives it. */
  admin: route('/admin', () => '/admin'),
  /** The review queue (docs/product.md section 10): moderators and admins. */
  moderation: route('/moderation', () => '/moderation'),
  /** The moderation log; `before`: the page of entries older than that one. */
  moderationLog: route('/moderation/log', (before?: string) => withQuery('/moderation/log', { before })),
  editQuestion: route('/edit/question/:qid', (qid: string) => `/edit/question/${segment(qid)}`),
  editAnswer: route('/edit/answer/:aid', (aid: string) => `/edit/answer/${segment(aid)}`),
  questionHistory: route('/history/question/:qid', (qid: string) => `/history/question/${segment(qid)}`),
  answerHistory: route('/history/answer/:aid', (aid: string) => `/history/answer/${segment(aid)}`),
  /** Anything no other route matches; there is nothing to link to. */
  notFound: { pattern: '*' },
} as const;
