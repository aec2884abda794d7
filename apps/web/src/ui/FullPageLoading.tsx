/** The signed-in area's wait state while the session check runs: a spinner with 'Loading...'. */
export function FullPageLoading() {
  return (
    <div className="full-page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}
