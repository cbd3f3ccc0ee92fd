// SIO_TCP_INFO on Windows: WSAIoctl(SIO_TCP_INFO) with version 1 (Windows 10
// 1709+) or, failing that, version 0 (1703+). Written from the Windows SDK
// documentation (mstcpip.h, TCP_INFO_v0 / TCP_INFO_v1). Cross-built with mingw-w64 and run
// under Wine by the Windows lane, where the call fails (Wine 8 has no SIO_TCP_INFO): only the
// release workflow's smoke step on real Windows reads real values. Windows reports cwnd and windows in bytes, and the
// send-limit times (SndLimTime*: Rwin, Cwnd, Snd) in milliseconds: converted to microseconds. This file
// reports what Windows counts, under the normalised names; what the counts mean for the
// diagnosis (busy time, a retransmitted-segment estimate) is electron/native/tcp-sample.ts's.
#ifdef _WIN32

#include "lh_socket.h"

#include <winsock2.h>
#include <mstcpip.h>
#include <cstddef>
#include <cstring>

namespace lh {

// SIO_TCP_INFO and its structs as the Windows SDK declares them (mstcpip.h). Declared here
// because the SDK's and mingw-w64's headers hide them below NTDDI_WIN10_RS2 / RS5, and
// node-gyp's MSVC build may define an older _WIN32_WINNT; the call itself falls back from v1
// to v0 at run time, so the binary runs wherever the OS has either. State is TCPSTATE, an
// enum: the size of a ULONG.
#ifndef SIO_TCP_INFO
#define SIO_TCP_INFO _WSAIORW(IOC_VENDOR, 39)
#endif

struct TcpInfoV0 {
  ULONG State;
  ULONG Mss;
  ULONG64 ConnectionTimeMs;
  BOOLEAN TimestampsEnabled;
  ULONG RttUs;
  ULONG MinRttUs;
  ULONG BytesInFlight;
  ULONG Cwnd;
  ULONG SndWnd;
  ULONG RcvWnd;
  ULONG RcvBuf;
  ULONG64 BytesOut;
  ULONG64 BytesIn;
  ULONG BytesReordered;
  ULONG BytesRetrans;
  ULONG FastRetrans;
  ULONG DupAcksIn;
  ULONG TimeoutEpisodes;
  UCHAR SynRetrans;
};

// TCP_INFO_v1: the members of v0 followed by the RFC 4898 send-limit counters. Embedding v0
// gives the SDK's layout: v0 is 85 bytes padded to 88, where v1's first ULONG after SynRetrans
// is aligned to anyway (checked below).
struct TcpInfoV1 {
  TcpInfoV0 base;
  ULONG SndLimTransRwin;
  ULONG SndLimTimeRwin;
  ULONG64 SndLimBytesRwin;
  ULONG SndLimTransCwnd;
  ULONG SndLimTimeCwnd;
  ULONG64 SndLimBytesCwnd;
  ULONG SndLimTransSnd;
  ULONG SndLimTimeSnd;
  ULONG64 SndLimBytesSnd;
};
static_assert(offsetof(TcpInfoV1, SndLimTransRwin) == 88 && sizeof(TcpInfoV1) == 136, "TCP_INFO_v1 layout as in mstcpip.h");

const char* TcpInfoSource() { return "windows-sio_tcp_info"; }

// The members both versions have.
static void FillCommon(const TcpInfoV0& ti, TcpInfo* out) {
  out->state.set(static_cast<double>(ti.State));
  out->sndMssBytes.set(ti.Mss);
  out->rttUs.set(ti.RttUs);
  out->minRttUs.set(ti.MinRttUs);
  out->bytesInFlight.set(ti.BytesInFlight);
  out->sndCwndBytes.set(ti.Cwnd);
  out->sndWndBytes.set(ti.SndWnd);
  out->rcvWndBytes.set(ti.RcvWnd);
  out->bytesSent.set(static_cast<double>(ti.BytesOut));
  out->bytesReceived.set(static_cast<double>(ti.BytesIn));
  // Windows counts retransmitted bytes, fast-retransmit invocations and timeout episodes (each
  // of several segments), never retransmitted segments: the segment count is estimated from the
  // bytes in electron/native/tcp-sample.ts and labelled so.
  out->retransmitBytes.set(static_cast<double>(ti.BytesRetrans));
}

OsError ReadTcpInfo(SockHandle h, TcpInfo* out) {
  SOCKET s = static_cast<SOCKET>(h);
  DWORD version = 1;
  TcpInfoV1 v1;
  DWORD got = 0;
  memset(&v1, 0, sizeof v1);
  if (WSAIoctl(s, SIO_TCP_INFO, &version, sizeof version, &v1, sizeof v1, &got, nullptr, nullptr) == 0) {
    out->source = "windows-sio_tcp_info_v1";
    out->rawBytes = got;
    FillCommon(v1.base, out);
    // The RFC 4898 send-limit times (ms), each as Windows counts it, cumulative since the
    // handshake: Receiver Limited (Rwin), Congestion Limited (Cwnd) and Sender Limited (Snd: the
    // sender held itself back: its application did not write, or its send buffer was smaller than
    // both windows; Windows does not tell them apart). The three cover the connection's
    // whole life, idle time included, so Snd time is not busy time: which of them make "busy"
    // is decided in electron/native/tcp-sample.ts, where it is unit-tested.
    out->rwndLimitedUs.set(static_cast<double>(v1.SndLimTimeRwin) * 1000.0);
    out->cwndLimitedUs.set(static_cast<double>(v1.SndLimTimeCwnd) * 1000.0);
    out->senderLimitedUs.set(static_cast<double>(v1.SndLimTimeSnd) * 1000.0);
    return OsError();
  }
  version = 0;
  TcpInfoV0 v0;
  memset(&v0, 0, sizeof v0);
  if (WSAIoctl(s, SIO_TCP_INFO, &version, sizeof version, &v0, sizeof v0, &got, nullptr, nullptr) == 0) {
    out->source = "windows-sio_tcp_info_v0";
    out->rawBytes = got;
    FillCommon(v0, out);
    return OsError();
  }
  OsError e;
  e.code = WSAGetLastError();
  e.where = "WSAIoctl(SIO_TCP_INFO)";
  return e;
}

}  // namespace lh

#endif  // _WIN32
