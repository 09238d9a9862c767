import { CONTACT_EMAIL } from '../../config';
import { useSupportChatConfig } from '../../supportChat/SupportChat';

/** How to reach us: the configured address when there is one, and the in-app support chat when this deployment has one. */
export function ContactLine() {
  const chat = !!useSupportChatConfig();
  if (CONTACT_EMAIL)
    return (
      <>
        write to <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
        {chat && ' or use the support chat inside Clipseek'}
      </>
    );
  return chat ? (
    <>use the support chat inside Clipseek, available once you are signed in</>
  ) : (
    <>contact the administrator of this Clipseek server</>
  );
}

/** The providers that process data for this deployment: the support chat only where there is one. */
export function ProcessorList() {
  return useSupportChatConfig()
    ? 'hosting and storage, email delivery, payment processing and the support chat'
    : 'hosting and storage, email delivery and payment processing';
}
