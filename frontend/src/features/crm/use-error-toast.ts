import { useEffect } from 'react';
import { useToast, type ToastText } from '../../shared/toast';

/**
 * Shows `text` once each time a query goes into error (a refetch that fails again toasts again).
 * The key collapses the same failure from several components into one toast.
 */
export function useErrorToast(isError: boolean, text: ToastText, key: string = text): void {
  const toast = useToast();
  useEffect(() => {
    if (isError) toast.error(text, key);
  }, [isError, text, key, toast]);
}
