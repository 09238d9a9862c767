import { API, type AccountCalls } from '../../contract';
import type { ApiClient } from './client';

type Body<K extends keyof AccountCalls> = AccountCalls[K]['body'];
type Data<K extends keyof AccountCalls> = AccountCalls[K]['data'];

/** Typed account calls. Calls that answer with a token update the stored one through the client. */
export function createAccountApi(client: ApiClient) {
  const post = <K extends keyof AccountCalls>(path: string, body: Body<K>, auth: 'required' | 'optional' | 'none') =>
    client.request<Data<K>>(path, { method: 'POST', body: body ?? {}, auth });

  return {
    login: (body: Body<'login'>) => post<'login'>(API.login, body, 'none'),
    register: (body: Body<'register'>) => post<'register'>(API.register, body, 'none'),
    logout: () => post<'logout'>(API.logout, undefined, 'required'),
    resetRequest: (body: Body<'resetRequest'>) => post<'resetRequest'>(API.resetRequest, body, 'none'),
    reset: (body: Body<'reset'>) => post<'reset'>(API.reset, body, 'none'),
    resetCheck: (body: Body<'resetCheck'>) => post<'resetCheck'>(API.resetCheck, body, 'none'),
    changePassword: (body: Body<'changePassword'>) => post<'changePassword'>(API.changePassword, body, 'required'),
    verifyEmail: (body: Body<'verifyEmail'>) => post<'verifyEmail'>(API.verifyEmail, body, 'none'),
    resendVerification: (body: Body<'resendVerification'>) => post<'resendVerification'>(API.resendVerification, body, 'optional'),
    refreshToken: () => post<'refreshToken'>(API.refreshToken, undefined, 'required'),
    me: () => client.request<Data<'me'>>(API.me, { method: 'GET', auth: 'required' }),
    feedback: (body: Body<'feedback'>) => post<'feedback'>(API.feedback, body, 'optional'),
    intercom: () => post<'intercom'>(API.intercom, undefined, 'required'),
  };
}

export type AccountApi = ReturnType<typeof createAccountApi>;
