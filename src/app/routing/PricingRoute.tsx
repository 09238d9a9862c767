import { useSnapshot } from 'valtio';
import { AppShell } from '../shell/AppShell';
import { PublicLayout } from '../shell/PublicLayout';
import { PricingScreen } from '../screens/pricing/PricingScreen';
import { session } from '../state/session';

/** Pricing is open to visitors; signed-in users see it inside their shell. */
export function PricingRoute() {
  const { token } = useSnapshot(session);
  return token ? (
    <AppShell>
      <PricingScreen />
    </AppShell>
  ) : (
    <PublicLayout>
      <PricingScreen />
    </PublicLayout>
  );
}
