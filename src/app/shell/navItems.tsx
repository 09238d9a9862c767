import type { ReactNode } from 'react';
import { ROUTES, settingsPath } from '../../contract';
import { IconHome, IconLibrary, IconSearch, IconSettings, IconTag } from '../ui/icons';

export interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  /** Paths that also mark this item current (e.g. /library/:id under Libraries). */
  matches?: string[];
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Workspace', to: ROUTES.workspace, icon: <IconHome /> },
  { label: 'Libraries', to: ROUTES.libraries, icon: <IconLibrary />, matches: ['/library/'] },
  { label: 'Search', to: ROUTES.search, icon: <IconSearch /> },
  { label: 'Pricing', to: ROUTES.pricing, icon: <IconTag /> },
  { label: 'Settings', to: settingsPath(), icon: <IconSettings /> },
];

export const isCurrent = (item: NavItem, pathname: string) =>
  pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.matches ?? []).some((m) => pathname.startsWith(m));
