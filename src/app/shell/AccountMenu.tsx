import { useSnapshot } from 'valtio';
import { ROUTES, settingsPath } from '../../contract';
import { COMPANY_SOCIAL } from '../config';
import { useLogout } from './useLogout';
import { preferences, setPreference } from '../state/preferences';
import { session } from '../state/session';
import { Avatar } from '../ui/Avatar';
import { IconCopyright, IconExternal, IconFile, IconLogout, IconSettings, IconShield } from '../ui/icons';
import { Menu, MenuCheckboxItem, MenuHeader, MenuItem, MenuLink, MenuSeparator } from '../ui/Menu';

export function AccountMenu() {
  const { user, claims } = useSnapshot(session);
  const email = user?.email ?? claims?.email ?? '';
  const name = user?.name ?? '';
  const { enableSounds } = useSnapshot(preferences);
  const onLogout = useLogout();
  return (
    <Menu
      label="Account"
      trigger={
        <button type="button" className="account-trigger" aria-label="Account menu">
          <Avatar name={name} email={email} size={34} />
        </button>
      }
    >
      <MenuHeader>
        <Avatar name={name} email={email} size={36} />
        <span className="account-menu__who">
          {name && <span className="account-menu__name">{name}</span>}
          <span className="account-menu__email">{email}</span>
        </span>
      </MenuHeader>
      <MenuSeparator />
      <MenuLink to={settingsPath()} icon={<IconSettings size={18} />}>
        Settings
      </MenuLink>
      <MenuLink to={ROUTES.privacy} icon={<IconShield size={18} />}>
        Privacy
      </MenuLink>
      <MenuLink to={ROUTES.terms} icon={<IconFile size={18} />}>
        Terms
      </MenuLink>
      <MenuLink to={`${ROUTES.terms}#copyright`} icon={<IconCopyright size={18} />}>
        Copyright
      </MenuLink>
      <MenuLink to={COMPANY_SOCIAL.url} external icon={<IconExternal size={18} />}>
        {COMPANY_SOCIAL.label}
      </MenuLink>
      <MenuSeparator />
      {/* A short sound when an upload or an indexing finishes (the enableSounds preference). */}
      <MenuCheckboxItem checked={enableSounds} onCheckedChange={(on) => setPreference('enableSounds', on)}>
        Sounds
      </MenuCheckboxItem>
      <MenuSeparator />
      <MenuItem icon={<IconLogout size={18} />} onSelect={onLogout} tone="danger">
        Log out
      </MenuItem>
    </Menu>
  );
}
