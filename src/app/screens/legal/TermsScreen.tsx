import { Link } from 'react-router-dom';
import { MIN_AGE, ROUTES, TERMS_NOTICE_DAYS } from '../../../contract';
import { ContactLine } from './ContactLine';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    body: (
      <p>
        These terms govern your use of the Clipseek browser extension and the Clipseek web app (together, the service). By installing the
        extension or creating an account you accept them. If you use Clipseek for an organisation, you accept them on its behalf.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use Clipseek',
    body: (
      <p>
        You must be at least {MIN_AGE} years old and able to enter a binding agreement. You are responsible for keeping your password secret
        and for everything done with your account.
      </p>
    ),
  },
  {
    id: 'your-content',
    title: 'Your content',
    body: (
      <>
        <p>
          You keep all rights to the videos and images you sync or upload. You give us only the permission we need to store, process, index
          and show them to you, for as long as they are in your account.
        </p>
        <p>
          You confirm that you have the right to use the content you add, including media generated with third-party AI tools under those
          tools' terms, and that it does not break the law or anyone else's rights.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <ul>
        <li>Do not upload content that is illegal, that sexualises minors, or that you have no right to use.</li>
        <li>Do not try to break, overload or get around the limits and security of the service.</li>
        <li>Do not use the service to harass people or to build a competing index of other people's media.</li>
      </ul>
    ),
  },
  {
    id: 'credits-and-billing',
    title: 'Credits, plans and billing',
    body: (
      <p>
        Processing and some downloads cost credits; storage is granted by your plan or by a top-up. Prices are shown on the{' '}
        <Link to={ROUTES.pricing}>pricing page</Link> before you buy. Subscriptions renew each billing period until you cancel; a
        cancellation takes effect at the end of the current period. Credits expire on the date shown with them, and unused credits are not
        refunded except where the law requires it.
      </p>
    ),
  },
  {
    id: 'copyright',
    title: 'Copyright and notices',
    body: (
      <>
        <p>
          The Clipseek software, name, logo and website are © {new Date().getFullYear()} Clipseek. All rights reserved. These terms give you
          a personal, non-transferable licence to use them while you use the service.
        </p>
        <p>
          If you believe content in Clipseek infringes your copyright, send us a notice identifying the work, the content and your contact
          details; to do so, <ContactLine />. We act on valid notices promptly and close the accounts of repeat infringers.
        </p>
      </>
    ),
  },
  {
    id: 'availability',
    title: 'Availability and changes to the service',
    body: (
      <p>
        We work to keep Clipseek available and your data safe, but the service is provided as it is, without a guarantee of uninterrupted
        operation. We may add, change or remove features; if a change takes away something you paid for, we refund the unused part.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Liability',
    body: (
      <p>
        To the extent the law allows, we are not liable for indirect or consequential losses, and our total liability is limited to the
        amount you paid us in the twelve months before the claim. Nothing in these terms limits liability that cannot be limited by law.
      </p>
    ),
  },
  {
    id: 'ending',
    title: 'Ending the agreement',
    body: (
      <p>
        You can stop using Clipseek and close your account at any time. We may suspend or close an account that seriously or repeatedly
        breaks these terms; where we can, we warn you first and give you the chance to export your content.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms. We will tell you about material changes by email or in the app at least {TERMS_NOTICE_DAYS} days before
        they take effect. If you do not agree, you may close your account before then; continuing to use Clipseek after that date means you
        accept the new terms.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms or the <Link to={ROUTES.privacy}>Privacy Policy</Link>? To reach us, <ContactLine />.
      </p>
    ),
  },
];

export default function TermsScreen() {
  return (
    <LegalDocument
      title="Terms of Service"
      updated="22 November 2026"
      intro={<p>The rules for using Clipseek, written to be read. Please take a few minutes to go through them.</p>}
      sections={sections}
    />
  );
}
