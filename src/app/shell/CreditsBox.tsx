import { MSG_BILLING, MSG_BILLING_LINKS, ROUTES, settingsPath } from '../../contract';
import { useCredits } from '../hooks/useCredits';
import { invalidateCredits } from '../state/credits';
import { creditFigures, formatCredits } from '../state/billingFigures';
import { IconAlert, IconCard, IconDatabase, IconFilm, IconRefresh, IconSparkle } from '../ui/icons';
import { Menu, MenuHeader, MenuItem, MenuLink, MenuSeparator } from '../ui/Menu';
import { Spinner } from '../ui/Spinner';
import { formatHoursMinutes } from '../ui/format';

/**
 * The header's credit balance. It opens a summary of the plan, the video-processing time and the
 * storage left, with links to the billing history and the pricing page.
 */
export function CreditsBox() {
  const { info, status, error } = useCredits();
  const figures = info ? creditFigures(info) : null;

  const balance = figures ? (
    <>
      <span className="credits-box__amount">{formatCredits(figures.credits)}</span>
      <span className="credits-box__unit">credits</span>
    </>
  ) : status === 'error' ? (
    <>
      <IconAlert size={16} />
      <span className="credits-box__unit">Credits</span>
    </>
  ) : (
    <Spinner size={14} label="Loading credits" />
  );

  return (
    <Menu
      label="Credits"
      trigger={
        <button
          type="button"
          className="credits-box"
          aria-label={figures ? `Credits: ${formatCredits(figures.credits)}` : 'Credits'}
          data-testid="credits-box"
        >
          <IconSparkle size={16} className="credits-box__icon" />
          {balance}
        </button>
      }
    >
      {figures ? (
        <MenuHeader>
          <div className="credits-menu">
            <div className="credits-menu__plan">
              <span className="credits-menu__label">Plan</span>
              <span className="credits-menu__plan-name">{figures.planName}</span>
            </div>
            <dl className="credits-menu__figures">
              <div className="credits-menu__row">
                <dt>
                  <IconSparkle size={16} /> Credits
                </dt>
                <dd>{formatCredits(figures.credits)}</dd>
              </div>
              <div className="credits-menu__row">
                <dt>
                  <IconFilm size={16} /> Video processing left
                </dt>
                <dd>{formatHoursMinutes(figures.ingestLeftSeconds)}</dd>
              </div>
              <div className="credits-menu__row">
                <dt>
                  <IconDatabase size={16} /> Storage left
                </dt>
                <dd>{formatHoursMinutes(figures.storageLeftSeconds)}</dd>
              </div>
            </dl>
          </div>
        </MenuHeader>
      ) : (
        <>
          <MenuHeader>
            <span className="credits-menu__status">{error ?? 'Loading your credits…'}</span>
          </MenuHeader>
          {status === 'error' && (
            <MenuItem icon={<IconRefresh size={18} />} onSelect={() => void invalidateCredits()}>
              Try again
            </MenuItem>
          )}
        </>
      )}
      <MenuSeparator />
      <MenuLink to={settingsPath('billing')} icon={<IconCard size={18} />}>
        {MSG_BILLING_LINKS.billingHistory}
      </MenuLink>
      <MenuLink to={ROUTES.pricing} icon={<IconSparkle size={18} />}>
        {MSG_BILLING.upgradePlan}
      </MenuLink>
    </Menu>
  );
}
