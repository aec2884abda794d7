// The account calls made from the screens around signing in: a reset link, a new password, the
// email confirmation link and a new confirmation email. Signing in, up and out are the session's
// (app/auth.ts).
import type { ForgotPasswordResult } from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';

type Post = Pick<ApiClient, 'post'>;

/** Asks for a reset link; the answer says whether it only went to the server's outbox. */
export const requestPasswordReset = (api: Post, email: string) => api.post<ForgotPasswordResult>('/auth/forgot-password', { email }, { noRefresh: true });

export const resetPassword = (api: Post, token: string, newPassword: string) => api.post('/auth/reset-password', { token, new_password: newPassword }, { noRefresh: true });

export const confirmEmail = (api: Post, token: string) => api.post<{ detail: string }>('/auth/confirm-email', { token }, { noRefresh: true });

/** A new confirmation email for the signed-in account. */
export const resendConfirmation = (api: Post) => api.post<{ detail: string }>('/auth/resend-confirmation');
