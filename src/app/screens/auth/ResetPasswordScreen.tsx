import { useSearchParams } from 'react-router-dom';
import { RequestResetForm } from './RequestResetForm';
import { SetNewPasswordForm } from './SetNewPasswordForm';

/** /reset-password: with a code, choose the new password; without, ask for the email with the link. */
export default function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const code = params.get('code');
  return code ? <SetNewPasswordForm code={code} /> : <RequestResetForm initialEmail={params.get('email') ?? ''} />;
}
