import { MIN_AGE, ROUTES } from '../../../contract';
import { Link } from 'react-router-dom';
import { ContactLine, ProcessorList } from './ContactLine';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: LegalSection[] = [
  {
    id: 'scope',
    title: 'What this policy covers',
    body: (
      <p>
        This policy explains what the Clipseek browser extension and the Clipseek web app collect, why, how long we keep it and what you can
        do about it. The extension syncs video media that you generate with AI tools in your browser into your Clipseek libraries, so that
        you can search it for moments alongside your other videos.
      </p>
    ),
  },
  {
    id: 'data-we-collect',
    title: 'Data we collect',
    body: (
      <>
        <ul>
          <li>
            <strong>Account data:</strong> your email address, an optional name, a hash of your password (never the password itself), the
            date you registered and whether your email is verified.
          </li>
          <li>
            <strong>Media you sync or upload:</strong> the video and image files the extension sends on your instruction, their titles and
            the page address they came from.
          </li>
          <li>
            <strong>Index data:</strong> what we derive from your media to make it searchable — transcripts, detected objects and on-screen
            text, colours and numeric image descriptions.
          </li>
          <li>
            <strong>Usage and billing data:</strong> the credits you use, your plan, purchases and invoices. Card details are handled by our
            payment provider and never reach our servers.
          </li>
          <li>
            <strong>Technical data:</strong> your IP address and browser type in our server logs, kept to keep the service secure and
            working.
          </li>
        </ul>
        <p>The extension does not read your browsing history, and it does not look at pages other than the media you choose to sync.</p>
      </>
    ),
  },
  {
    id: 'how-we-use-it',
    title: 'How we use it',
    body: (
      <ul>
        <li>To provide the service: store your media, index it, and answer your searches.</li>
        <li>To run your account: sign-in, email verification, password resets and service messages.</li>
        <li>To bill you correctly for processing and storage.</li>
        <li>To keep the service secure, prevent abuse and fix errors you report to us.</li>
      </ul>
    ),
  },
  {
    id: 'no-selling',
    title: 'No selling, no advertising, no model training',
    body: (
      <p>
        We do not sell your data, share it with advertisers or use your media to train machine-learning models. Your libraries are visible
        to you only. Our support staff can access your account only to help you with a request, and every such session is marked on screen.
      </p>
    ),
  },
  {
    id: 'processors',
    title: 'Who processes data for us',
    body: (
      <p>
        We use a small number of providers to run Clipseek: <ProcessorList />. Each receives only what it needs for its task and is bound by
        a data-processing agreement. Where data leaves your country, we rely on the safeguards the law provides, such as standard
        contractual clauses.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <p>
        We keep your account and media for as long as your account exists. When you delete media, we delete it and its index data; copies in
        backups disappear as those backups expire. When you close your account, we delete everything except the invoices we are required by
        law to keep.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <p>
        You can access, correct, export or delete your data, object to or restrict its processing, and complain to your data protection
        authority. To exercise a right, <ContactLine />. We answer within one month.
      </p>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        Clipseek is not meant for children. You must be at least {MIN_AGE} years old to use the extension or create an account. If we learn
        that an account belongs to someone younger than {MIN_AGE}, we close it and delete its data.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Connections to Clipseek are encrypted, passwords are stored only as strong one-way hashes, and access to production systems is
        limited to the people who run them. No system is perfectly secure; if a breach affects your data, we will tell you without undue
        delay.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        When we change this policy in a way that matters, we tell you by email or in the app before the change applies. The{' '}
        <Link to={ROUTES.terms}>Terms of Service</Link> describe the notice period.
      </p>
    ),
  },
];

export default function PrivacyScreen() {
  return (
    <LegalDocument
      title="Privacy Policy"
      updated="22 November 2026"
      intro={<p>Your videos are yours. We collect only what we need to store, index and search them for you, and we never sell it.</p>}
      sections={sections}
    />
  );
}
