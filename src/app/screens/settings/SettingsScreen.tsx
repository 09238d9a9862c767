import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { SETTINGS_TABS, settingsPath, ROUTES, type SettingsTab } from '../../../contract';
import { Button } from '../../ui/Button';
import { IconArrowLeft, IconCard, IconLock } from '../../ui/icons';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { BillingTab } from './BillingTab';
import { PasswordTab } from './PasswordTab';
import './settings.css';

const isTab = (value: string | undefined): value is SettingsTab => SETTINGS_TABS.includes(value as SettingsTab);

const TAB_OPTIONS = [
  {
    value: 'password',
    label: (
      <>
        <IconLock size={16} /> Password
      </>
    ),
  },
  {
    value: 'billing',
    label: (
      <>
        <IconCard size={16} /> Billing
      </>
    ),
  },
] as const;

/** Returns to the previous page in this tab's history, or to the workspace when settings was opened directly. */
function useHistoryBack() {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(ROUTES.workspace);
  };
}

export default function SettingsScreen() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const back = useHistoryBack();
  if (!isTab(tab)) return <Navigate to={settingsPath('billing')} replace />;

  return (
    <div className="page">
      <Button variant="ghost" size="sm" className="settings__back" onClick={back}>
        <IconArrowLeft size={16} /> Back
      </Button>
      <div className="page__header spread">
        <div>
          <h1 className="page__title">Settings</h1>
          <p className="page__subtitle">Manage your password and your plan.</p>
        </div>
        {/* Switching tabs replaces the entry so Back leaves settings instead of stepping through tabs. */}
        <SegmentedControl<SettingsTab>
          label="Settings section"
          value={tab}
          options={TAB_OPTIONS}
          onValueChange={(value) => void navigate(settingsPath(value), { replace: true })}
        />
      </div>
      {tab === 'password' ? <PasswordTab /> : <BillingTab />}
    </div>
  );
}
