import { refreshAccount } from './account';

/**
 * Seam for the credit balance: credits are refetched after uploads and downloads (libraries spec
 * sections 4 and 7). The billing issue adds the credits store and fetches it here; until then this
 * refetches the account, which is what the header shows today.
 */
export async function refreshCredits() {
  await refreshAccount();
}
