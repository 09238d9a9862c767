import { MSG } from '../../contract';
import { isApiError } from './ApiError';

/** The text to show for a failed call: the server's message, or the generic one for anything else. */
export const errorMessage = (error: unknown) => (isApiError(error) ? error.message : MSG.unexpected);
