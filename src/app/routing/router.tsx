import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { ROUTES } from '../../contract';
import { AuthLayout } from '../screens/auth/AuthLayout';
import ConfirmEmailScreen from '../screens/auth/ConfirmEmailScreen';
import LoginScreen from '../screens/auth/LoginScreen';
import RegisterScreen from '../screens/auth/RegisterScreen';
import ResetPasswordScreen from '../screens/auth/ResetPasswordScreen';
import VerifyEmailScreen from '../screens/auth/VerifyEmailScreen';
import ImpersonateScreen from '../screens/ImpersonateScreen';
import LibrariesScreen from '../screens/libraries/LibrariesScreen';
import LibraryScreen from '../screens/library/LibraryScreen';
import { NotFoundScreen } from '../screens/placeholders/sections';
import SearchScreen from '../screens/search/SearchScreen';
import WorkspaceScreen from '../screens/workspace/WorkspaceScreen';
import SettingsScreen from '../screens/settings/SettingsScreen';
import { AppShell } from '../shell/AppShell';
import { RouteError } from '../shell/ErrorBoundary';
import { PublicLayout } from '../shell/PublicLayout';
import { RequireSession } from './guards';
import { PricingRoute } from './PricingRoute';

// Legal pages are rarely opened, so they load on demand.
const lazyDefault = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    element: <Outlet />,
    children: [
      { path: ROUTES.root, element: <Navigate to={ROUTES.workspace} replace /> },
      {
        element: <AuthLayout />,
        children: [
          { path: ROUTES.login, element: <LoginScreen /> },
          { path: ROUTES.register, element: <RegisterScreen /> },
          { path: ROUTES.resetPassword, element: <ResetPasswordScreen /> },
          { path: ROUTES.verifyEmail, element: <VerifyEmailScreen /> },
          { path: ROUTES.confirmEmail, element: <ConfirmEmailScreen /> },
        ],
      },
      { path: ROUTES.impersonate, element: <ImpersonateScreen /> },
      { path: ROUTES.pricing, element: <PricingRoute /> },
      {
        element: <PublicLayout />,
        children: [
          { path: ROUTES.privacy, lazy: lazyDefault(() => import('../screens/legal/PrivacyScreen')) },
          { path: ROUTES.terms, lazy: lazyDefault(() => import('../screens/legal/TermsScreen')) },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppShell />,
            children: [
              // Settings stays open to unverified accounts (e.g. to change a password). So do the workspace and
              // the libraries: there they see the verification notice, and adding or creating is disabled with
              // the reason (libraries spec sections 2, 5 and 6). The rest needs a verified email.
              { path: `${ROUTES.settings}/:tab?`, element: <SettingsScreen /> },
              { path: ROUTES.workspace, element: <WorkspaceScreen /> },
              { path: ROUTES.libraries, element: <LibrariesScreen /> },
              { path: '/library/:id', element: <LibraryScreen /> },
              { path: '/library/:id/media/:mediaId', element: <LibraryScreen /> },
              {
                element: <RequireSession verified />,
                children: [{ path: ROUTES.search, element: <SearchScreen /> }],
              },
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
