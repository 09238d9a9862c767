import { useEffect, useState } from 'react';
import { describeMissingFeature, type FeatureOff } from '../../../contract';
import { serverHealth } from '../../api/health';
import { Alert } from '../../ui/Alert';

/** The server's indexing features that are off (asked once per page load; a failed ask is retried next time). */
export function useFeaturesOff(): FeatureOff[] {
  const [off, setOff] = useState<FeatureOff[]>([]);
  useEffect(() => {
    let live = true;
    serverHealth().then(
      (h) => live && setOff(h.off.filter((f) => !f.optional)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return off;
}

function FeatureList({ features }: { features: FeatureOff[] }) {
  return (
    <ul className="features-off">
      {features.map((f) => (
        <li key={f.feature}>
          <strong>{f.label}</strong>: {f.reason}
        </li>
      ))}
    </ul>
  );
}

/** What this server cannot index right now, shown where people watch indexing. Nothing when all is on. */
export function ServerFeaturesNotice() {
  const off = useFeaturesOff();
  if (!off.length) return null;
  return (
    <Alert tone="warning" title="Some features are off on this server">
      <FeatureList features={off} />
      New videos are indexed without them until an administrator installs what is missing.
    </Alert>
  );
}

/** The features one media was indexed without (its `missingFeatures`), add-ons left out. */
export function IndexedWithout({ missing }: { missing: readonly string[] }) {
  const off = missing.map(describeMissingFeature).filter((f) => !f.optional);
  return off.length ? <FeatureList features={off} /> : null;
}
