/**
 * The limits of a run's parameters, one copy for every door: the engine's
 * schema (protocol/run-params.ts), the CLI's flags and the Test screen's form
 * all read them here, so a limit cannot differ between them.
 */
export const MAX_STREAMS = 128;
export const MAX_BUFFER_BYTES = 16 * 1024 * 1024;
export const MAX_WINDOW_BYTES = 1024 * 1024 * 1024;
export const MAX_SECONDS = 24 * 3600;
export const MIN_SECONDS = 0.1;
export const MIN_INTERVAL_SECONDS = 0.1;
export const MAX_INTERVAL_SECONDS = 60;
/** TCP_MAXSEG bounds: Linux's TCP_MIN_MSS is 88; the MSS option is 16 bits (an OS may refuse less, and says so). */
export const MIN_MSS_BYTES = 88;
export const MAX_MSS_BYTES = 65_535;
/** The path's rate a user may state (`--path-rate`, the Test screen's field), bit/s: above 0, at most 1 Tbit/s (larger is a typo). */
export const MAX_PATH_RATE_BITS_PER_SEC = 1e12;
/** The pacing rate a user may ask for (`--bitrate`, the Test screen's Bitrate), bit/s per stream: at least 1 kbit/s, at most 1 Tbit/s. */
export const MIN_BITRATE_BITS_PER_SEC = 1e3;
export const MAX_BITRATE_BITS_PER_SEC = 1e12;
