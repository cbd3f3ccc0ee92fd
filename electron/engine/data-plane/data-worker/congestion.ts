/**
 * `-C, --congestion NAME` on one stream end: Linux TCP_CONGESTION on the socket (the sender's is what
 * shapes the transfer; both ends get it, as iperf3 does). Where the OS has no per-socket choice the
 * end keeps its system's and says so; the stream's socket report then names what it used.
 */
import type { SocketReport } from '../../../contract/result.js';
import type { NativeApi } from '../../../native/native-api.js';

/** Why this OS cannot choose the congestion control per socket, naming where it is set instead. */
function noPerSocketCongestionReason(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32')
    return 'Windows chooses the congestion control per system TCP template, not per socket (netsh int tcp set supplemental template=internet congestionprovider=NAME, or Set-NetTCPSetting)';
  if (platform === 'darwin') return 'macOS chooses the congestion control for the whole system (sysctl net.inet.tcp.cc.algorithm), not per socket';
  if (platform === 'linux') return 'this build of the native addon cannot set TCP_CONGESTION';
  return `${platform} cannot choose the congestion control per socket here`;
}

/** Set `name` on `fd` and update `report` with what the socket uses now; a refusal goes to its `unavailable`, in the OS's words. */
export function applyCongestion(api: NativeApi | null, fd: number | null, name: string, report: SocketReport | null): void {
  const note = (reason: string): void => {
    report?.unavailable.push({ field: 'congestionControl', reason: `--congestion ${name} not applied: ${reason}` });
  };
  if (!api?.congestionControl) return note(api ? noPerSocketCongestionReason() : 'the native addon is not loaded');
  if (fd === null) return note('the socket has no descriptor here');
  try {
    api.congestionControl.set(fd, name);
  } catch (err) {
    note((err as Error).message);
  }
  try {
    if (report) report.congestionControl = api.congestionControl.get(fd);
  } catch {
    // the report keeps what it read at connect time
  }
}

/**
 * Whether this PC can give its stream sockets `name`: null when it can, else why, in the OS's words
 * (a throwaway socket is asked, as the streams will be: ENOENT for an algorithm this kernel does not
 * have, EPERM for one outside net.ipv4.tcp_allowed_congestion_control).
 */
export function congestionRefusal(api: NativeApi | null, name: string, platform: NodeJS.Platform = process.platform): string | null {
  if (!api?.congestionControl) return api ? noPerSocketCongestionReason(platform) : 'the native addon is not loaded, so the socket cannot be asked';
  const { fd } = api.createTcpSocket({ family: 4 });
  try {
    api.congestionControl.set(fd, name);
    return null;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const hint = e.errno === 2 ? ` (this kernel does not have "${name}": see net.ipv4.tcp_available_congestion_control)` : '';
    return `${e.message}${hint}`;
  } finally {
    api.closeFd(fd);
  }
}
