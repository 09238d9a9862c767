import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ROUTES, settingsPath } from '../../../contract';
import { session } from '../../state/session';
import { IconLibrary, IconSearch, IconSettings } from '../../ui/icons';
import './placeholders.css';

const SHORTCUTS = [
  { to: ROUTES.libraries, icon: <IconLibrary />, title: 'Libraries', text: 'Your collections of videos and images.' },
  { to: ROUTES.search, icon: <IconSearch />, title: 'Search', text: 'Find moments by what is seen or said.' },
  { to: settingsPath('password'), icon: <IconSettings />, title: 'Settings', text: 'Password and billing.' },
];

/**
 * Seam: the workspace of the libraries issue replaces this welcome page. It greets the signed-in
 * account and links to the sections that exist.
 */
export default function WorkspaceScreen() {
  const { user } = useSnapshot(session);
  return (
    <div className="page">
      <div className="page__header">
        <div>
          <h1 className="page__title">Welcome{user?.name ? `, ${user.name}` : ''}</h1>
          <p className="page__subtitle">
            Signed in as <span className="workspace__email">{user?.email}</span>
          </p>
        </div>
      </div>
      <div className="shortcut-grid">
        {SHORTCUTS.map((s) => (
          <Link key={s.to} to={s.to} className="shortcut">
            <span className="shortcut__icon">{s.icon}</span>
            <span className="shortcut__title">{s.title}</span>
            <span className="shortcut__text">{s.text}</span>
          </Link>
        ))}
      </div>
    </div>
  );
}
