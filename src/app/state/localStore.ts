/**
 * The browser's local storage, or null where there is none or it is refused (the browser's privacy
 * settings can make merely reading `localStorage` throw): what is kept then lives in memory only.
 */
export const localStore = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
};
