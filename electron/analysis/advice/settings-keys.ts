/**
 * The names of this PC's TCP settings the advice reads and names, and the shape they come in.
 * Pure: the reader that fills them from the OS is engine/session/local-settings.ts; the advice only
 * needs the names and the values it was given.
 */

/** The sysctls the Linux advice names. */
export const LINUX_KEYS = ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem', 'net.core.rmem_max', 'net.core.wmem_max', 'net.ipv4.tcp_window_scaling'] as const;
/** The sysctls the macOS advice names. */
export const MACOS_KEYS = ['kern.ipc.maxsockbuf', 'net.inet.tcp.autorcvbufmax', 'net.inet.tcp.autosndbufmax', 'net.inet.tcp.rfc1323'] as const;
/** The name the Windows autotuning level is kept under (a dotted name, as the results schema wants). */
export const WINDOWS_AUTOTUNING_KEY = 'netsh.tcp.autotuninglevel';

/** Setting name → value as read (whitespace collapsed); a key that could not be read is absent. */
export type LocalSettings = Record<string, string>;
