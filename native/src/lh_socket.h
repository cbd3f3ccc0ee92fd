// The platform layer of the Longhaul socket addon. Plain C++ with no N-API in
// it: each platform file fills these structs, addon.cc turns them into JS.
// A field the OS does not report stays "absent" (has == false) and the JS side
// shows it as unavailable, never as a made-up number.
#pragma once

#include <cstdint>
#include <string>

namespace lh {

#ifdef _WIN32
typedef uint64_t SockHandle;  // a SOCKET
#else
typedef int SockHandle;  // a file descriptor
#endif

// An optional number: `has` says whether the OS reported it.
struct Field {
  bool has = false;
  double value = 0;
  void set(double v) {
    has = true;
    value = v;
  }
};

// Result of a socket call: 0 = ok, otherwise the OS error number and where it happened.
struct OsError {
  int code = 0;
  std::string where;
  bool ok() const { return code == 0; }
};

struct SocketOptions {
  int family = 4;            // 4 or 6
  int64_t sndBufBytes = 0;   // 0 = leave the OS default
  int64_t rcvBufBytes = 0;
  bool noDelay = true;
  int64_t maxSegBytes = 0;   // 0 = leave; TCP_MAXSEG where the OS allows it
};

struct Buffers {
  Field sndBufBytes;
  Field rcvBufBytes;
  // Whether the size is pinned (autotuning off). Linux SO_BUF_LOCK only.
  Field sndLocked;
  Field rcvLocked;
};

// One snapshot of what the kernel knows about a TCP connection, normalised
// to one set of names with the unit in the name.
struct TcpInfo {
  std::string source;  // "linux-tcp_info", "windows-sio_tcp_info_v1", "macos-tcp_connection_info"
  int64_t rawBytes = 0;  // how many bytes of the OS struct the kernel filled in
  Field state;           // OS-specific numeric state
  Field rttUs, rttVarUs, minRttUs;
  Field sndCwndSegments, sndCwndBytes, sndSsthresh;
  Field sndMssBytes, rcvMssBytes, advMssBytes, pmtuBytes;
  Field totalRetransSegments, retransmitBytes, lostSegments, unackedSegments, bytesInFlight;
  Field sndWndBytes, rcvWndBytes, rcvSpaceBytes, rcvSsthreshBytes;
  Field sndWscale, rcvWscale, wscaleNegotiated;
  Field deliveryRateBytesPerSec, deliveryRateAppLimited;
  Field busyUs, rwndLimitedUs, sndbufLimitedUs, cwndLimitedUs;
  Field bytesSent, bytesAcked, bytesReceived, notSentBytes;
  // RFC 4898 sender-limited time (Windows SndLimTimeSnd): the application left the socket empty.
  Field senderLimitedUs;
  // Linux: duplicate SACKs, reordering events, and the pacing rate (absent when unpaced).
  Field dsackDups, reordSeen, pacingRateBytesPerSec;
  // Linux: data segments received, retransmitted and out-of-order ones included (kernel 4.6 on).
  Field dataSegsIn;
};

// socket_posix.cc / socket_win.cc
OsError CreateTcpSocket(const SocketOptions& opts, SockHandle* out, std::string* warnings);
OsError SetBuffers(SockHandle s, int64_t sndBufBytes, int64_t rcvBufBytes);
OsError GetBuffers(SockHandle s, Buffers* out);
OsError SetBufferLocks(SockHandle s, bool sndLocked, bool rcvLocked);
// TCP_MAXSEG: before the handshake it caps the MSS this end advertises and sends (0 = the
// OS's own again, Linux); after it, getsockopt reads the MSS in use. Windows reads only.
OsError SetMaxSeg(SockHandle s, int64_t bytes);
OsError GetMaxSeg(SockHandle s, int64_t* out);
OsError CloseSocket(SockHandle s);
std::string ErrorText(int code);

// tcp_info_linux.cc / tcp_info_mac.cc / tcp_info_win.cc (one of them is real per platform)
OsError ReadTcpInfo(SockHandle s, TcpInfo* out);
// Which API ReadTcpInfo uses here, or "" when this platform has none.
const char* TcpInfoSource();

}  // namespace lh
