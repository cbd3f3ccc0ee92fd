/**
 * Windows before Vista (NT 4, 2000, XP, Server 2003) and Windows 95/98: no
 * autotuning; the window is a registry value read at boot. The satellite
 * tests of 1998 (4 Mbit/s, 1.3 s RTT) set exactly these. All values are
 * REG_DWORD (Microsoft documents Tcp1323Opts as a DWORD; that report entered
 * it as a string); a restart applies them. Never read from here: unknown.
 */
import { valueFor, neededBytes, type AdviceLine, type AdviceNeed, type OsRules } from './os-rules.js';

const TCPIP = 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
const MSTCP = 'HKLM\\System\\CurrentControlSet\\Services\\VxD\\MSTCP';

/** Windows 95/98/Me report a 4.x release with a minor version of 10 or more (98: 4.10, Me: 4.90) — NT 4 is 4.0. */
function isWin9x(release: string): boolean {
  const [major, minor] = release.split('.').map(Number);
  return major === 4 && (minor ?? 0) >= 10;
}

function dword(n: AdviceNeed, key: string, name: string, why: string): AdviceLine {
  return {
    setting: `${key}\\${name}`,
    currentValue: null,
    neededValue: `${neededBytes(n)} (REG_DWORD)`,
    how: `regedit, or: reg add "${key}" /v ${name} /t REG_DWORD /d ${valueFor(n)} /f; then restart`,
    why,
  };
}

function receive(n: AdviceNeed, release: string): AdviceLine[] {
  if (isWin9x(release)) {
    return [dword(n, MSTCP, 'DefaultRcvWindow', 'Windows 95/98 advertise this receive window on every connection.')];
  }
  return [
    dword(
      n,
      TCPIP,
      'TcpWindowSize',
      'The receive window every connection advertises (a per-interface TcpWindowSize under Parameters\\Interfaces overrides it).',
    ),
    dword(n, TCPIP, 'GlobalMaxTcpWindowSize', 'Windows 2000 and later cap every window (also one an application sets) at this value.'),
  ];
}

function scaling(release: string): AdviceLine[] {
  return [
    {
      setting: `${isWin9x(release) ? `${MSTCP}\\Parameters` : TCPIP}\\Tcp1323Opts`,
      currentValue: null,
      neededValue: '1 (window scaling) or 3 (window scaling and timestamps), REG_DWORD',
      how: `reg add "${isWin9x(release) ? `${MSTCP}\\Parameters` : TCPIP}" /v Tcp1323Opts /t REG_DWORD /d 3 /f; then restart`,
      why: 'Without window scaling (RFC 1323) no window above 65,535 bytes can be advertised, whatever TcpWindowSize says.',
    },
  ];
}

/** The rules for one legacy release (9x and NT keep their values in different keys). */
export function windowsLegacyRules(release: string): OsRules {
  return {
    'receive-window': (n) => [...receive(n, release), ...(n.windowBytes === null || n.windowBytes > 65_535 ? scaling(release) : [])],
    'window-scaling': () => scaling(release),
    'send-buffer': (n) => [
      dword(n, 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\AFD\\Parameters', 'DefaultSendWindow', 'The send buffer of sockets whose application sets none.'),
    ],
    mss: (n) => [
      {
        setting: isWin9x(release) ? `HKLM\\System\\CurrentControlSet\\Services\\Class\\netTrans\\000n\\MaxMTU` : `${TCPIP}\\Interfaces\\<adapter>\\MTU`,
        currentValue: null,
        neededValue: `an MTU that gives an MSS of about ${n.pathMssBytes.toLocaleString('en-US')} bytes (1,500 on Ethernet)`,
        how: 'regedit; then restart',
        why: 'Each segment carries the same headers: small segments waste the link.',
      },
    ],
  };
}
