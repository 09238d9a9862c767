import { CONTACT_EMAIL } from '../../config';

/** How to reach us: the configured address when there is one, the in-app support chat always. */
export function ContactLine() {
  return CONTACT_EMAIL ? (
    <>
      write to <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> or use the support chat inside Clipseek
    </>
  ) : (
    <>use the support chat inside Clipseek, available once you are signed in</>
  );
}
