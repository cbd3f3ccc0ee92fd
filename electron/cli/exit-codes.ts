/** Process exit codes of the `longhaul` CLI. */
export const EXIT_OK = 0;
/** The run failed, or ended early with partial results. */
export const EXIT_RUN_FAILED = 1;
/** A flag or argument was invalid; nothing ran. */
export const EXIT_BAD_ARGS = 2;
