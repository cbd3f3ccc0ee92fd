// TCP_INFO on Linux: getsockopt(IPPROTO_TCP, TCP_INFO) fills `struct tcp_info`
// from <linux/tcp.h>. An older kernel fills fewer bytes than this header
// describes; a field past the returned length is left absent, not zero.
#ifdef __linux__

#include "lh_socket.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace lh {

const char* TcpInfoSource() { return "linux-tcp_info"; }

OsError ReadTcpInfo(SockHandle fd, TcpInfo* out) {
  struct tcp_info ti;
  memset(&ti, 0, sizeof ti);
  socklen_t len = sizeof ti;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) {
    OsError e;
    e.code = errno;
    e.where = "getsockopt(TCP_INFO)";
    return e;
  }
  out->source = TcpInfoSource();
  out->rawBytes = len;
  const size_t n = len;
#define LH_HAS(f) (n >= offsetof(struct tcp_info, f) + sizeof(ti.f))
#define LH_SET(dst, f) \
  if (LH_HAS(f)) out->dst.set(static_cast<double>(ti.f))

  // The first 8 bytes (state, options, window scales) are in every kernel's struct.
  out->state.set(ti.tcpi_state);
  out->wscaleNegotiated.set((ti.tcpi_options & TCPI_OPT_WSCALE) ? 1 : 0);
  out->sndWscale.set(ti.tcpi_snd_wscale);
  out->rcvWscale.set(ti.tcpi_rcv_wscale);
  LH_SET(sndMssBytes, tcpi_snd_mss);
  LH_SET(rcvMssBytes, tcpi_rcv_mss);
  LH_SET(unackedSegments, tcpi_unacked);
  LH_SET(lostSegments, tcpi_lost);
  LH_SET(pmtuBytes, tcpi_pmtu);
  LH_SET(rcvSsthreshBytes, tcpi_rcv_ssthresh);
  LH_SET(rttUs, tcpi_rtt);
  LH_SET(rttVarUs, tcpi_rttvar);
  LH_SET(sndSsthresh, tcpi_snd_ssthresh);
  LH_SET(sndCwndSegments, tcpi_snd_cwnd);
  LH_SET(advMssBytes, tcpi_advmss);
  LH_SET(rcvSpaceBytes, tcpi_rcv_space);
  LH_SET(totalRetransSegments, tcpi_total_retrans);
  LH_SET(bytesAcked, tcpi_bytes_acked);
  LH_SET(bytesReceived, tcpi_bytes_received);
  LH_SET(notSentBytes, tcpi_notsent_bytes);
  LH_SET(minRttUs, tcpi_min_rtt);
  LH_SET(deliveryRateBytesPerSec, tcpi_delivery_rate);
  // The app-limited bit sits in the first 8 bytes, but kernels before delivery_rate (4.9) leave it 0.
  if (LH_HAS(tcpi_delivery_rate)) out->deliveryRateAppLimited.set(ti.tcpi_delivery_rate_app_limited);
  LH_SET(busyUs, tcpi_busy_time);
  LH_SET(rwndLimitedUs, tcpi_rwnd_limited);
  LH_SET(sndbufLimitedUs, tcpi_sndbuf_limited);
  LH_SET(bytesSent, tcpi_bytes_sent);
  LH_SET(retransmitBytes, tcpi_bytes_retrans);
  LH_SET(sndWndBytes, tcpi_snd_wnd);
  LH_SET(dsackDups, tcpi_dsack_dups);  // kernel 4.19 on
  LH_SET(reordSeen, tcpi_reord_seen);
  LH_SET(dataSegsIn, tcpi_data_segs_in);
  // ~0 is the kernel's "no pacing rate" (sk_pacing_rate never set): not a rate.
  if (LH_HAS(tcpi_pacing_rate) && ti.tcpi_pacing_rate != ~0ULL) out->pacingRateBytesPerSec.set(static_cast<double>(ti.tcpi_pacing_rate));
  if (out->sndCwndSegments.has && out->sndMssBytes.has) {
    out->sndCwndBytes.set(out->sndCwndSegments.value * out->sndMssBytes.value);
  }
#undef LH_SET
#undef LH_HAS
  return OsError();
}

}  // namespace lh

#endif  // __linux__
