/**
 * When the last verification email went out, per address, so the 60-second wait survives a reload
 * and starts at registration (which sends the first email).
 */
const key = (email: string) => `clipseek.verificationSentAt:${email.trim().toLowerCase()}`;

export function lastVerificationSentAt(email: string): number | null {
  try {
    const value = Number(localStorage.getItem(key(email)));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export function recordVerificationSent(email: string, atMs = Date.now()) {
  try {
    localStorage.setItem(key(email), String(atMs));
  } catch {
    // Without storage the wait simply restarts on reload; the server enforces it anyway.
  }
}
