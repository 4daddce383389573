import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that, once it succeeds, refetches every query under `keys` and settles only when
 * they have been fetched again, so a dialog closes onto fresh lists.
 */
export function useRefreshingMutation<V, R>(call: (vars: V) => Promise<R>, keys: QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
