/** Which advice rules fit an end's OS, from what its hello said (`os.platform()`, `os.release()`). */
import type { PeerOs } from '../../contract/advice.js';
import { LINUX_RULES } from './linux.js';
import { MACOS_RULES } from './macos.js';
import type { OsRules } from './os-rules.js';
import { WINDOWS_RULES } from './windows.js';
import { windowsLegacyRules } from './windows-legacy.js';

interface OsFamily {
  /** The name advice shows, e.g. `Linux 6.18.0`, `Windows (before Vista) 5.1.2600`, `unknown`. */
  label: string;
  /** Null when the OS is unknown: no settings can be named. */
  rules: OsRules | null;
}

/** The family and rules for an OS; Windows releases below 6.0 (before Vista) use the registry values. */
export function osFamily(os: PeerOs | undefined): OsFamily {
  if (!os) return { label: 'unknown (the PC did not say: a Longhaul version that does not send its OS)', rules: null };
  const major = Number(os.release.split('.')[0]);
  switch (os.platform) {
    case 'linux':
      return { label: `Linux ${os.release}`, rules: LINUX_RULES };
    case 'darwin':
      return { label: `macOS (Darwin ${os.release})`, rules: MACOS_RULES };
    case 'win32':
      return Number.isFinite(major) && major < 6
        ? { label: `Windows (before Vista) ${os.release}`, rules: windowsLegacyRules(os.release) }
        : { label: `Windows ${os.release}`, rules: WINDOWS_RULES };
    default:
      return { label: `${os.platform} ${os.release} (no advice rules for this OS)`, rules: null };
  }
}
