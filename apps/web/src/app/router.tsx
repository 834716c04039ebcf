import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { ContentLayout } from './layouts/content-layout';
import { AppLoading, RootLayout, rootLoader } from './layouts/root-layout';
import { shouldRevalidateAccount } from './layouts/should-revalidate-account';
import { SignedInLayout, signedInLoader } from './layouts/signed-in-layout';
import { AccessibilitySettingsRoute } from './routes/accessibility-settings';
import { ForumsRoute } from './routes/forums';
import { HomeRoute, homeLoader } from './routes/home';
import { LandingRoute } from './routes/landing';
import { LoginRoute } from './routes/login';
import { NewAnswerRoute } from './routes/new-answer';
import { NewForumRoute } from './routes/new-forum';
import { NewQuestionRoute } from './routes/new-question';
import { NewThreadRoute } from './routes/new-thread';
import { NotFoundRoute } from './routes/not-found';
import { PorpchatRoute, porpchatLoader } from './routes/porpchat';
import { ProfileRoute } from './routes/profile';
import { QuestionRoute, questionLoader } from './routes/question';
import { RegisterRoute } from './routes/register';
import { RouteError } from './routes/route-error';
import { TagsRoute, tagsLoader } from './routes/tags';
import { ThreadRoute } from './routes/thread';
import { ThreadsRoute } from './routes/threads';
import { UserProfileRoute } from './routes/user-profile';

/** The route table of spec section 2 plus /login (product.md section 2). */
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
          { path: paths.landing.pattern, Component: LandingRoute },
          { path: paths.porp.pattern, Component: LandingRoute },
          { path: paths.register.pattern, Component: RegisterRoute },
          { path: paths.login.pattern, Component: LoginRoute },
          { path: paths.porpchat.pattern, loader: porpchatLoader, Component: PorpchatRoute },
          { path: paths.notFound.pattern, Component: NotFoundRoute },
        ],
      },
      {
        id: 'signed-in',
        loader: signedInLoader,
        shouldRevalidate: shouldRevalidateAccount,
        Component: SignedInLayout,
        children: [
          { path: paths.home.pattern, loader: homeLoader, Component: HomeRoute },
          { path: paths.tags.pattern, loader: tagsLoader, Component: TagsRoute },
          { path: paths.forums.pattern, Component: ForumsRoute },
          { path: paths.question.pattern, loader: questionLoader, Component: QuestionRoute },
          { path: paths.newQuestion.pattern, Component: NewQuestionRoute },
          // Optional id, so a bare /new/answer can say 'Question ID is missing.' (spec section 2).
          { path: `${paths.newAnswer.pattern}?`, Component: NewAnswerRoute },
          { path: paths.profile.pattern, Component: ProfileRoute },
          { path: paths.userProfile.pattern, Component: UserProfileRoute },
          { path: paths.threads.pattern, Component: ThreadsRoute },
          { path: paths.newThread.pattern, Component: NewThreadRoute },
          { path: paths.thread.pattern, Component: ThreadRoute },
          { path: paths.newForum.pattern, Component: NewForumRoute },
          { path: paths.accessibilitySettings.pattern, Component: AccessibilitySettingsRoute },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
