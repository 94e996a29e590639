/**
 * The DataTable props that come from a TanStack Query list result (`{ data, pagination }` of
 * the API): the rows, the loading and error states and Retry. Pagination stays with the page.
 *
 *   <DataTable label="Jobs" columns={columns} {...listQueryProps(jobs)} pagination={…} />
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
