import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clearSession } from '@/api/core';
import { accountApi } from '@/api/account/queries';
import { tagsActions } from '@/store/tagsView';

/**
 * Ends the session in the browser. `tellServer` is false when the server has already revoked
 * the token (after a password change or an account transfer).
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (tellServer: boolean) => {
      if (tellServer) {
        // Even if the server call fails the browser forgets the token.
        await accountApi.logout().catch(() => undefined);
      }
      clearSession();
      queryClient.clear();
      tagsActions.clear();
      navigate('/login', { replace: true });
    },
    [navigate, queryClient],
  );
}
