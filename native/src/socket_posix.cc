// Socket creation and buffer options on Linux and macOS (POSIX sockets).
// Buffers are set before connect()/listen() because the TCP window scale is
// fixed in the SYN: a buffer set after the handshake cannot raise it.
#ifndef _WIN32

#include "lh_socket.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/tcp.h>  // TCP_NODELAY, TCP_MAXSEG (and struct tcp_info, used elsewhere)
#else
#include <netinet/tcp.h>
#endif

#ifndef SO_BUF_LOCK
#define SO_BUF_LOCK 72  // Linux >= 5.14; older kernels answer ENOPROTOOPT
#endif
#define LH_SNDBUF_LOCK 1  // SOCK_SNDBUF_LOCK in the kernel
#define LH_RCVBUF_LOCK 2  // SOCK_RCVBUF_LOCK

namespace lh {

std::string ErrorText(int code) { return std::string(strerror(code)); }

static OsError Fail(const char* where) {
  OsError e;
  e.code = errno;
  e.where = where;
  return e;
}

static OsError SetInt(int fd, int level, int name, int64_t value, const char* where) {
  int v = value > 0x7fffffff ? 0x7fffffff : static_cast<int>(value);
  if (setsockopt(fd, level, name, &v, sizeof v) != 0) return Fail(where);
  return OsError();
}

OsError CreateTcpSocket(const SocketOptions& opts, SockHandle* out, std::string* warnings) {
  int domain = opts.family == 6 ? AF_INET6 : AF_INET;
#ifdef __linux__
  int fd = socket(domain, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (fd < 0) return Fail("socket");
#else
  int fd = socket(domain, SOCK_STREAM, IPPROTO_TCP);
  if (fd < 0) return Fail("socket");
  int flags = fcntl(fd, F_GETFL, 0);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
    OsError e = Fail("fcntl");
    close(fd);
    return e;
  }
#ifdef SO_NOSIGPIPE
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
#endif
  OsError e = SetBuffers(fd, opts.sndBufBytes, opts.rcvBufBytes);
  if (!e.ok()) {
    close(fd);
    return e;
  }
  if (opts.noDelay) {
    e = SetInt(fd, IPPROTO_TCP, TCP_NODELAY, 1, "setsockopt(TCP_NODELAY)");
    if (!e.ok()) {
      close(fd);
      return e;
    }
  }
  if (opts.maxSegBytes > 0) {
    // Not fatal: some systems refuse TCP_MAXSEG before connect; say so instead.
    e = SetInt(fd, IPPROTO_TCP, TCP_MAXSEG, opts.maxSegBytes, "setsockopt(TCP_MAXSEG)");
    if (!e.ok() && warnings) *warnings += e.where + ": " + ErrorText(e.code);
  }
  *out = fd;
  return OsError();
}

OsError SetMaxSeg(SockHandle fd, int64_t bytes) {
  return SetInt(fd, IPPROTO_TCP, TCP_MAXSEG, bytes, "setsockopt(TCP_MAXSEG)");
}

OsError GetMaxSeg(SockHandle fd, int64_t* out) {
  int v = 0;
  socklen_t len = sizeof v;
  if (getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, &len) != 0) return Fail("getsockopt(TCP_MAXSEG)");
  *out = v;
  return OsError();
}

OsError SetBuffers(SockHandle fd, int64_t sndBufBytes, int64_t rcvBufBytes) {
  if (sndBufBytes > 0) {
    OsError e = SetInt(fd, SOL_SOCKET, SO_SNDBUF, sndBufBytes, "setsockopt(SO_SNDBUF)");
    if (!e.ok()) return e;
  }
  if (rcvBufBytes > 0) {
    OsError e = SetInt(fd, SOL_SOCKET, SO_RCVBUF, rcvBufBytes, "setsockopt(SO_RCVBUF)");
    if (!e.ok()) return e;
  }
  return OsError();
}

OsError GetBuffers(SockHandle fd, Buffers* out) {
  int v = 0;
  socklen_t len = sizeof v;
  if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) != 0) return Fail("getsockopt(SO_SNDBUF)");
  out->sndBufBytes.set(v);
  len = sizeof v;
  if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) != 0) return Fail("getsockopt(SO_RCVBUF)");
  out->rcvBufBytes.set(v);
#ifdef __linux__
  len = sizeof v;
  if (getsockopt(fd, SOL_SOCKET, SO_BUF_LOCK, &v, &len) == 0) {
    out->sndLocked.set((v & LH_SNDBUF_LOCK) ? 1 : 0);
    out->rcvLocked.set((v & LH_RCVBUF_LOCK) ? 1 : 0);
  }
#endif
  return OsError();
}

OsError SetBufferLocks(SockHandle fd, bool sndLocked, bool rcvLocked) {
#ifdef __linux__
  int v = (sndLocked ? LH_SNDBUF_LOCK : 0) | (rcvLocked ? LH_RCVBUF_LOCK : 0);
  return SetInt(fd, SOL_SOCKET, SO_BUF_LOCK, v, "setsockopt(SO_BUF_LOCK)");
#else
  (void)fd; (void)sndLocked; (void)rcvLocked;
  OsError e;
  e.code = ENOTSUP;
  e.where = "SO_BUF_LOCK (Linux only)";
  return e;
#endif
}

OsError CloseSocket(SockHandle fd) {
  if (close(fd) != 0) return Fail("close");
  return OsError();
}

}  // namespace lh

#endif  // !_WIN32
