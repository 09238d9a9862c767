/**
 * Seam for the header's credits box (balance, plan, time and storage left, links to billing and
 * pricing). The billing issue replaces this with the real component; until then the header
 * reserves its place and shows nothing rather than invented numbers.
 */
export function CreditsBox() {
  return null;
}
