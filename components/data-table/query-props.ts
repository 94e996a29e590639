/**
 * DataTable props from a TanStack Query list result: rows, loading and error states and Retry.
 * Pagination stays with the page: `<DataTable … {...listQueryProps(jobs)} pagination={…} />`.
 */
export function listQueryProps<T>(query: {
  data: { data: T[] } | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}) {
  return {
    data: query.data?.data,
    isLoading: query.isPending,
    isFetching: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
}
