import { useNavigation } from 'react-router-dom';
import { Spinner } from '../ui/Spinner';

/**
 * Stands in for a screen whose code is on its way on the first load (the router's hydrate fallback).
 * It appears after a short delay, so a fast load shows no spinner at all.
 */
export function RouteFallback() {
  return (
    <div className="page-spinner route-fallback">
      <Spinner size={28} label="Loading" />
    </div>
  );
}

/**
 * A thin bar at the top of the window while the router fetches the next screen's code: the current
 * screen stays until the next one is ready. Delayed like `RouteFallback`.
 */
export function NavigationProgress() {
  const { state } = useNavigation();
  return state === 'loading' ? <div className="navigation-progress" role="progressbar" aria-label="Loading page" /> : null;
}
