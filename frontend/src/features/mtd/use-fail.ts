import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';

/** A refused MTD action's toast: the server's reason, or a plain "try again". */
export function useFail() {
  const toast = useToast();
  return (e: unknown) => toast.error(serverText(errorBody(e)?.message ?? 'Something went wrong. Try again.'));
}
