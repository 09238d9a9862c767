import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, ROUTES, libraryPath, type Library } from '../../../contract';
import { useLibraries } from '../../hooks/useLibraries';
import { session } from '../../state/session';
import { IconChevronLeft } from '../../ui/icons';
import { LoadFailed } from '../../ui/LoadFailed';
import { PageSpinner, Spinner } from '../../ui/Spinner';
import { LibraryThumb, libraryName } from '../../libraries/LibraryCard';
import { enqueueFiles } from '../../upload/enqueueFiles';
import { UploadBox } from '../../upload/UploadBox';
import { VerifyNotice } from './VerifyNotice';
import { demoReadiness } from './workspaceRules';
import './workspace.css';

/** First-time means none of the user's own (non-demo) libraries holds media yet. */
export const isFirstTime = (list: readonly Library[]) => !list.some((l) => !l.isDemo && l.stats.count > 0);

/** How often the workspace asks again while the demo's samples are being indexed (as the library page polls). */
const DEMO_POLL_MS = 2000;

/**
 * /workspace, for first-time users only: an upload box (into the default library) and the welcome
 * library card. Everyone else goes to /libraries. Unverified accounts see the verification notice.
 */
export default function WorkspaceScreen() {
  const { user } = useSnapshot(session);
  // Asked afresh when the page opens; while the demo's samples are being indexed, its card follows
  // them until they are ready.
  const { items, status, error, reload } = useLibraries({
    pollMs: (list) => (list?.some((l) => l.isDemo && demoReadiness(l.stats).indexing) ? DEMO_POLL_MS : false),
  });
  const navigate = useNavigate();

  if (!items) {
    if (status !== 'error') return <PageSpinner label="Loading your workspace" />;
    return (
      <div className="page">
        <LoadFailed title="We couldn't load your libraries" onRetry={reload}>
          {error}
        </LoadFailed>
      </div>
    );
  }
  const list = items as Library[];
  // The spinner stays while the router fetches the libraries screen's code.
  if (!isFirstTime(list))
    return (
      <>
        <Navigate to={ROUTES.libraries} replace />
        <PageSpinner label="Loading your workspace" />
      </>
    );

  const target = list.find((l) => l.isDefault) ?? list.find((l) => !l.isDemo && !l.isReadOnly) ?? null;
  const demo = list.find((l) => l.isDemo) ?? null;
  const demoState = demo ? demoReadiness(demo.stats) : null;
  const unverified = user?.isVerified === false;

  const upload = (files: File[]) => {
    if (!target) return;
    void enqueueFiles(files, { libraryId: target._id, folderId: target.rootFolderId }, { dropped: true });
    // Progress is shown where the files are going; the queue keeps running across pages.
    void navigate(libraryPath(target._id));
  };

  return (
    <div className="page">
      <div className="page__header spread">
        <div>
          <h1 className="page__title">Welcome{user?.name ? `, ${user.name}` : ''}</h1>
          <p className="page__subtitle">
            Signed in as <span className="workspace__email">{user?.email}</span>
          </p>
        </div>
      </div>
      {unverified && user && <VerifyNotice email={user.email} />}
      <div className="workspace">
        <section className="workspace__upload" aria-labelledby="workspace-upload-title">
          <h2 id="workspace-upload-title" className="workspace__section-title">
            Add your first videos
          </h2>
          <p className="workspace__section-text">
            {target ? (
              <>
                They go to <strong>{target.name}</strong> and are indexed so you can search what is seen and said in them.
              </>
            ) : (
              'Create a library to add videos.'
            )}
          </p>
          <UploadBox onFiles={upload} disabledReason={unverified ? MSG.verifyToAdd : !target ? 'No library to upload into.' : null} />
        </section>
        {demo && (
          <section className="workspace__demo" aria-label="Demo library">
            <p className="workspace__section-title">Explore the demo</p>
            <Link to={libraryPath(demo._id)} className="welcome-card">
              <LibraryThumb library={demo} />
              <span className="welcome-card__body">
                <span className="welcome-card__name">{libraryName(demo)}</span>
                <span className="welcome-card__meta" role="status" data-indexing={demoState?.indexing}>
                  {demoState?.indexing && <Spinner size={12} />}
                  {demoState?.text}
                </span>
              </span>
              <span className="welcome-card__go">
                Open <IconChevronLeft size={16} className="welcome-card__arrow" />
              </span>
            </Link>
          </section>
        )}
      </div>
    </div>
  );
}
