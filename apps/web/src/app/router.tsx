import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { ContentLayout } from './layouts/content-layout';
import { AppLoading, RootLayout, rootLoader } from './layouts/root-layout';
import { shouldRevalidateAccount } from './layouts/should-revalidate-account';
import { OpenOrSignedInLayout, SignedInLayout, signedInLoader } from './layouts/signed-in-layout';
import { HomeRoute, homeLoader } from './routes/home';
import { profileLoader, profileShouldRevalidate, userProfileLoader } from './routes/profile-loader';
import { questionLoader } from './routes/question-loader';
import { tagsLoader } from './routes/tags-loader';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';

// The landing page (a visitor's name for PorpChat) is not part of a member's first download.
const landing = () => import('./routes/landing').then((m) => ({ Component: m.LandingRoute }));

/**
 * The route table of spec section 2 plus /login (docs/product.md section 2). The home list and
 * the landing page are in the first download; every other screen is fetched when first
 * visited, which keeps the JavaScript needed to paint /home small. The loaders of the pages
 * members open most (a question, the tags, profiles) are in the first download too, small
 * as they are: their data is asked for while the page's module is on its way, not after.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: rootLoader,
    shouldRevalidate: shouldRevalidateAccount,
    Component: RootLayout,
    HydrateFallback: AppLoading,
    ErrorBoundary: RouteError,
    children: [
      {
        // Open screens: no header or menu.
        Component: ContentLayout,
        children: [
          { path: paths.landing.pattern, lazy: landing },
          { path: paths.porp.pattern, lazy: landing },
          {
            path: paths.register.pattern,
            lazy: () => import('./routes/register').then((m) => ({ Component: m.RegisterRoute })),
          },
          {
            path: paths.login.pattern,
            lazy: () => import('./routes/login').then((m) => ({ Component: m.LoginRoute })),
          },
          {
            path: paths.forgotPassword.pattern,
            lazy: () => import('./routes/forgot-password').then((m) => ({ Component: m.ForgotPasswordRoute })),
          },
          {
            path: paths.resetPassword.pattern,
            lazy: () => import('./routes/reset-password').then((m) => ({ Component: m.ResetPasswordRoute })),
          },
          {
            path: paths.confirmEmail.pattern,
            lazy: () => import('./routes/confirm-email').then((m) => ({ Component: m.ConfirmEmailRoute })),
          },
          {
            path: paths.unsubscribe.pattern,
            lazy: () => import('./routes/unsubscribe').then((m) => ({ Component: m.UnsubscribeRoute })),
          },
          { path: paths.notFound.pattern, Component: NotFoundRoute },
        ],
      },
      {
        // Open to visitors; a signed-in member keeps the header and menu (docs/product.md section 5).
        Component: OpenOrSignedInLayout,
        children: [
          {
            path: paths.porpchat.pattern,
            lazy: () =>
              import('./routes/porpchat').then((m) => ({ loader: m.porpchatLoader, Component: m.PorpchatRoute })),
          },
        ],
      },
      {
        id: 'signed-in',
        loader: signedInLoader,
        shouldRevalidate: shouldRevalidateAccount,
        Component: SignedInLayout,
        children: [
          { path: paths.home.pattern, loader: homeLoader, Component: HomeRoute },
          {
            path: paths.tags.pattern,
            loader: tagsLoader,
            lazy: () => import('./routes/tags').then((m) => ({ Component: m.TagsRoute })),
          },
          {
            path: paths.forums.pattern,
            lazy: () => import('./routes/forums').then((m) => ({ loader: m.forumsLoader, Component: m.ForumsRoute })),
          },
          {
            path: paths.question.pattern,
            loader: questionLoader,
            lazy: () => import('./routes/question').then((m) => ({ Component: m.QuestionRoute })),
          },
          {
            path: paths.newQuestion.pattern,
            lazy: () => import('./routes/new-question').then((m) => ({ Component: m.NewQuestionRoute })),
          },
          // Optional id, so a bare /new/answer can say 'Question ID is missing.' (spec section 2).
          {
            path: `${paths.newAnswer.pattern}?`,
            lazy: () =>
              import('./routes/new-answer').then((m) => ({ loader: m.newAnswerLoader, Component: m.NewAnswerRoute })),
          },
          {
            path: paths.profile.pattern,
            loader: profileLoader,
            shouldRevalidate: profileShouldRevalidate,
            lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })),
          },
          {
            path: paths.notifications.pattern,
            lazy: () =>
              import('./routes/notifications').then((m) => ({
                loader: m.notificationsLoader,
                Component: m.NotificationsRoute,
              })),
          },
          {
            path: paths.privileges.pattern,
            lazy: () =>
              import('./routes/help-privileges').then((m) => ({
                loader: m.privilegesLoader,
                Component: m.PrivilegesRoute,
              })),
          },
          {
            path: paths.userProfile.pattern,
            loader: userProfileLoader,
            lazy: () => import('./routes/user-profile').then((m) => ({ Component: m.UserProfileRoute })),
          },
          {
            path: paths.threads.pattern,
            lazy: () =>
              import('./routes/threads').then((m) => ({ loader: m.threadsLoader, Component: m.ThreadsRoute })),
          },
          {
            path: paths.newThread.pattern,
            lazy: () => import('./routes/new-thread').then((m) => ({ Component: m.NewThreadRoute })),
          },
          {
            path: paths.thread.pattern,
            lazy: () =>
              import('./routes/thread').then((m) => ({
                loader: m.threadLoader,
                handle: m.threadHandle,
                Component: m.ThreadRoute,
              })),
          },
          {
            path: paths.newForum.pattern,
            lazy: () => import('./routes/new-forum').then((m) => ({ Component: m.NewForumRoute })),
          },
          {
            path: paths.editQuestion.pattern,
            lazy: () =>
              import('./routes/edit-post').then((m) => ({
                loader: m.editQuestionLoader,
                Component: m.EditQuestionRoute,
              })),
          },
          {
            path: paths.editAnswer.pattern,
            lazy: () =>
              import('./routes/edit-post').then((m) => ({ loader: m.editAnswerLoader, Component: m.EditAnswerRoute })),
          },
          ...[paths.questionHistory.pattern, paths.answerHistory.pattern].map((path) => ({
            path,
            lazy: () =>
              import('./routes/post-history').then((m) => ({ loader: m.historyLoader, Component: m.PostHistoryRoute })),
          })),
          ...[paths.adminUsers.pattern, paths.admin.pattern].map((path) => ({
            path,
            lazy: () =>
              import('./routes/admin-users').then((m) => ({
                loader: m.adminUsersLoader,
                Component: m.AdminUsersRoute,
              })),
          })),
          {
            path: paths.moderation.pattern,
            lazy: () =>
              import('./routes/moderation').then((m) => ({ loader: m.moderationLoader, Component: m.ModerationRoute })),
          },
          {
            path: paths.moderationLog.pattern,
            lazy: () =>
              import('./routes/moderation-log').then((m) => ({
                loader: m.moderationLogLoader,
                Component: m.ModerationLogRoute,
              })),
          },
          {
            path: paths.accessibilitySettings.pattern,
            lazy: () =>
              import('./routes/accessibility-settings').then((m) => ({ Component: m.AccessibilitySettingsRoute })),
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
