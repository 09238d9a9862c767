import type { RouteObject } from 'react-router-dom';
import { createBrowserRouter, Outlet, redirect } from 'react-router-dom';
import { ROUTES } from '../../contract';
import { AuthLayout } from '../screens/auth/AuthLayout';
import LoginScreen from '../screens/auth/LoginScreen';
import { NotFoundScreen } from '../screens/placeholders/sections';
import { AppShell } from '../shell/AppShell';
import { RouteError } from '../shell/ErrorBoundary';
import { PublicLayout } from '../shell/PublicLayout';
import { NavigationProgress, RouteFallback } from '../shell/RouteLoading';
import { session } from '../state/session';
import { RequireSession, visitorPathFor } from './guards';
import { lazyRoute } from './lazyChunk';

// Every screen is its own chunk, fetched when its route matches (route `lazy`), so the first page
// carries only React, the router, the API client and the frames (scripts/bundle-size.mjs checks the
// budget). The login screen is the exception: it is the page every new visitor lands on.

/**
 * The screens of a frame (auth, public or signed-in), in the frame's outlet: on the first load the
 * frame shows at once with `RouteFallback` where the screen goes, and a screen that fails to load
 * (or throws) keeps the frame around its error.
 */
const screens = (children: RouteObject[]): RouteObject => ({
  hydrateFallbackElement: <RouteFallback />,
  errorElement: <RouteError />,
  children,
});

function Root() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <RouteFallback />,
    element: <Root />,
    children: [
      // To the workspace, or for a visitor straight to where RequireSession would send them from there, so
      // their first page does not wait for the workspace's code.
      {
        path: ROUTES.root,
        loader: () => redirect(session.token ? ROUTES.workspace : visitorPathFor(ROUTES.workspace, session.endedBy)),
      },
      {
        element: <AuthLayout />,
        children: [
          screens([
            { path: ROUTES.login, element: <LoginScreen /> },
            { path: ROUTES.register, lazy: lazyRoute(() => import('../screens/auth/RegisterScreen')) },
            { path: ROUTES.resetPassword, lazy: lazyRoute(() => import('../screens/auth/ResetPasswordScreen')) },
            { path: ROUTES.verifyEmail, lazy: lazyRoute(() => import('../screens/auth/VerifyEmailScreen')) },
            { path: ROUTES.confirmEmail, lazy: lazyRoute(() => import('../screens/auth/ConfirmEmailScreen')) },
          ]),
        ],
      },
      { path: ROUTES.impersonate, lazy: lazyRoute(() => import('../screens/ImpersonateScreen')) },
      { path: ROUTES.pricing, lazy: lazyRoute(() => import('./PricingRoute'), 'PricingRoute') },
      {
        element: <PublicLayout />,
        children: [
          screens([
            { path: ROUTES.privacy, lazy: lazyRoute(() => import('../screens/legal/PrivacyScreen')) },
            { path: ROUTES.terms, lazy: lazyRoute(() => import('../screens/legal/TermsScreen')) },
          ]),
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppShell />,
            children: [
              screens([
                // Settings stays open to unverified accounts (e.g. to change a password). So do the workspace and
                // the libraries: there they see the verification notice, and adding or creating is disabled with
                // the reason (libraries spec sections 2, 5 and 6). The rest needs a verified email.
                { path: `${ROUTES.settings}/:tab?`, lazy: lazyRoute(() => import('../screens/settings/SettingsScreen')) },
                { path: ROUTES.workspace, lazy: lazyRoute(() => import('../screens/workspace/WorkspaceScreen')) },
                { path: ROUTES.libraries, lazy: lazyRoute(() => import('../screens/libraries/LibrariesScreen')) },
                { path: '/library/:id', lazy: lazyRoute(() => import('../screens/library/LibraryScreen')) },
                { path: '/library/:id/media/:mediaId', lazy: lazyRoute(() => import('../screens/library/LibraryScreen')) },
                { path: '/library/:id/folder/:folderId', lazy: lazyRoute(() => import('../screens/library/LibraryScreen')) },
                { path: '/library/:id/folder/:folderId/media/:mediaId', lazy: lazyRoute(() => import('../screens/library/LibraryScreen')) },
                {
                  element: <RequireSession verified />,
                  children: [{ path: ROUTES.search, lazy: lazyRoute(() => import('../screens/search/SearchScreen')) }],
                },
              ]),
            ],
          },
        ],
      },
      {
        path: '*',
        element: (
          <PublicLayout>
            <NotFoundScreen />
          </PublicLayout>
        ),
      },
    ],
  },
]);
