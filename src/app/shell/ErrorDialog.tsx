import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { MSG, sendableText } from '../../contract';
import { api } from '../api/instance';
import { errorDialog } from '../state/errorDialog';
import { session } from '../state/session';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextArea, TextField } from '../ui/TextField';

// After a crash the page's state cannot be trusted, so every way out of the dialog reloads.
const reload = () => window.location.reload();

/** Field limits the feedback call accepts; a long stack is cut rather than refused. */
const LIMITS = { name: 200, email: 320, comments: 10_000, error: 20_000 } as const;

/** The global crash report: asks for optional context, sends it with the error, then reloads. */
export function ErrorDialog() {
  const { error } = useSnapshot(errorDialog);
  if (!error) return null;
  return <ErrorDialogForm error={error} />;
}

function ErrorDialogForm({ error }: { error: string }) {
  const [name, setName] = useState(session.user?.name ?? '');
  const [email, setEmail] = useState(session.user?.email ?? session.claims?.email ?? '');
  const [comments, setComments] = useState('');
  const [busy, setBusy] = useState(false);
  const [sendFailed, setSendFailed] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api.feedback({ name, email, comments, error: sendableText(error, { lines: true, max: LIMITS.error }) });
      reload();
    } catch {
      setSendFailed(true);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) reload();
      }}
      title={MSG.errorDialogTitle}
      description="Something went wrong on this page. If you tell us what you were doing, we can fix it faster."
      width={520}
    >
      <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          maxLength={LIMITS.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={LIMITS.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextArea
          label="Comments"
          name="comments"
          rows={4}
          maxLength={LIMITS.comments}
          placeholder="What happened just before the error?"
          value={comments}
          onChange={(e) => setComments(e.target.value)}
        />
        <details className="error-details">
          <summary>Technical details</summary>
          <pre>{error}</pre>
        </details>
        {sendFailed && <Alert tone="error">{MSG.unexpected}</Alert>}
        <div className="dialog__footer">
          <Button variant="secondary" onClick={reload}>
            {MSG.dontSend}
          </Button>
          <Button type="submit" busy={busy}>
            {MSG.sendFeedback}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
