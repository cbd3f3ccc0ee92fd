// TCP_CONNECTION_INFO on macOS: getsockopt(IPPROTO_TCP, TCP_CONNECTION_INFO)
// fills `struct tcp_connection_info` (<netinet/tcp.h>, macOS 10.11+). Written
// from Apple's headers; not built or tested on this Linux machine. Times are
// in milliseconds there, converted to microseconds here; cwnd is in bytes.
#if defined(__APPLE__)

#include "lh_socket.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace lh {

#ifdef TCP_CONNECTION_INFO

const char* TcpInfoSource() { return "macos-tcp_connection_info"; }

OsError ReadTcpInfo(SockHandle fd, TcpInfo* out) {
  struct tcp_connection_info ti;
  memset(&ti, 0, sizeof ti);
  socklen_t len = sizeof ti;
  if (getsockopt(fd, IPPROTO_TCP, TCP_CONNECTION_INFO, &ti, &len) != 0) {
    OsError e;
    e.code = errno;
    e.where = "getsockopt(TCP_CONNECTION_INFO)";
    return e;
  }
  out->source = TcpInfoSource();
  out->rawBytes = len;
  out->state.set(ti.tcpi_state);
  out->wscaleNegotiated.set((ti.tcpi_options & TCPCI_OPT_WSCALE) ? 1 : 0);
  out->sndWscale.set(ti.tcpi_snd_wscale);
  out->rcvWscale.set(ti.tcpi_rcv_wscale);
  out->sndMssBytes.set(ti.tcpi_maxseg);
  out->sndSsthresh.set(ti.tcpi_snd_ssthresh);
  out->sndCwndBytes.set(ti.tcpi_snd_cwnd);
  out->sndWndBytes.set(ti.tcpi_snd_wnd);
  out->rcvWndBytes.set(ti.tcpi_rcv_wnd);
  out->rttUs.set(static_cast<double>(ti.tcpi_srtt) * 1000.0);
  out->rttVarUs.set(static_cast<double>(ti.tcpi_rttvar) * 1000.0);
  out->bytesSent.set(static_cast<double>(ti.tcpi_txbytes));
  out->bytesReceived.set(static_cast<double>(ti.tcpi_rxbytes));
  out->retransmitBytes.set(static_cast<double>(ti.tcpi_txretransmitbytes));
  out->totalRetransSegments.set(static_cast<double>(ti.tcpi_txretransmitpackets));
  return OsError();
}

#else  // an SDK without TCP_CONNECTION_INFO

const char* TcpInfoSource() { return ""; }

OsError ReadTcpInfo(SockHandle, TcpInfo*) {
  OsError e;
  e.code = ENOPROTOOPT;
  e.where = "TCP_CONNECTION_INFO (not in this macOS SDK)";
  return e;
}

#endif

}  // namespace lh

#elif !defined(__linux__) && !defined(_WIN32)

// Other POSIX systems (FreeBSD, ...): no TCP info reader yet; say so.
#include "lh_socket.h"

#include <cerrno>

namespace lh {

const char* TcpInfoSource() { return ""; }

OsError ReadTcpInfo(SockHandle, TcpInfo*) {
  OsError e;
  e.code = ENOTSUP;
  e.where = "TCP info (no reader for this OS)";
  return e;
}

}  // namespace lh

#endif
