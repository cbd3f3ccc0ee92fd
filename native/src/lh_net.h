// The few socket calls that differ between POSIX and Winsock, behind one
// name each, for the code that owns data connections end to end
// (owned_conn.cc) and the byte loops (stream_pump.cc). Header-only: every
// function is a thin inline wrapper, so each platform's code reads the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#ifdef _WIN32
// windows.h's min/max macros would break std::min/std::max in every file that includes this.
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <uv.h>
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace lh {
namespace net {

#ifdef _WIN32
typedef SOCKET Sock;
typedef WSAPOLLFD PollFd;
const Sock kBadSock = INVALID_SOCKET;
inline int LastError() { return WSAGetLastError(); }
inline bool WouldBlock(int e) { return e == WSAEWOULDBLOCK; }
inline bool InProgress(int e) { return e == WSAEWOULDBLOCK || e == WSAEINPROGRESS; }
inline bool Interrupted(int e) { return e == WSAEINTR; }
const int kTimedOut = WSAETIMEDOUT;
const int kConnReset = WSAECONNRESET;
inline int Poll(PollFd* fds, size_t n, int ms) { return WSAPoll(fds, static_cast<ULONG>(n), ms); }
const short kPollIn = POLLRDNORM;
const short kPollOut = POLLWRNORM;
inline long long SendSome(Sock s, const char* p, size_t n) { return ::send(s, p, static_cast<int>(n > 0x40000000 ? 0x40000000 : n), 0); }
inline long long RecvSome(Sock s, char* p, size_t n) { return ::recv(s, p, static_cast<int>(n > 0x40000000 ? 0x40000000 : n), 0); }
inline void CloseSock(Sock s) { closesocket(s); }
inline bool SetNonBlocking(Sock s) {
  u_long on = 1;
  return ioctlsocket(s, FIONBIO, &on) == 0;
}
inline int ShutdownSend(Sock s) { return shutdown(s, SD_SEND) == 0 ? 0 : LastError(); }
#else
typedef int Sock;
typedef pollfd PollFd;
const Sock kBadSock = -1;
inline int LastError() { return errno; }
inline bool WouldBlock(int e) { return e == EAGAIN || e == EWOULDBLOCK; }
inline bool InProgress(int e) { return e == EINPROGRESS; }
inline bool Interrupted(int e) { return e == EINTR; }
const int kTimedOut = ETIMEDOUT;
const int kConnReset = ECONNRESET;
inline int Poll(PollFd* fds, size_t n, int ms) { return ::poll(fds, n, ms); }
const short kPollIn = POLLIN;
const short kPollOut = POLLOUT;
#ifdef MSG_NOSIGNAL
const int kSendFlags = MSG_NOSIGNAL;  // a reset peer gives EPIPE, never SIGPIPE
#else
const int kSendFlags = 0;  // macOS: SO_NOSIGPIPE is set on the socket instead
#endif
inline long long SendSome(Sock s, const char* p, size_t n) { return ::send(s, p, n, kSendFlags); }
inline long long RecvSome(Sock s, char* p, size_t n) { return ::recv(s, p, n, 0); }
inline void CloseSock(Sock s) { ::close(s); }
inline bool SetNonBlocking(Sock s) {
  int flags = fcntl(s, F_GETFL, 0);
  return flags >= 0 && fcntl(s, F_SETFL, flags | O_NONBLOCK) == 0;
}
inline int ShutdownSend(Sock s) { return shutdown(s, SHUT_WR) == 0 ? 0 : LastError(); }
#endif

// Now on process.hrtime()'s clock, in ns. POSIX: libuv's own uv_hrtime. Windows: the same
// QueryPerformanceCounter reading libuv scales there, computed here so the addon imports
// nothing but Node-API from its host (node.exe or Longhaul.exe).
#ifdef _WIN32
inline uint64_t MonoNs() {
  static const uint64_t freq = [] {
    LARGE_INTEGER f;
    QueryPerformanceFrequency(&f);
    return static_cast<uint64_t>(f.QuadPart);
  }();
  LARGE_INTEGER c;
  QueryPerformanceCounter(&c);
  uint64_t ticks = static_cast<uint64_t>(c.QuadPart);
  return ticks / freq * 1000000000ULL + ticks % freq * 1000000000ULL / freq;
}
#else
inline uint64_t MonoNs() { return uv_hrtime(); }
#endif

// Wait up to `ms` for one socket to be ready for `events`; true when it is (or has an error to report).
inline bool WaitOne(Sock s, short events, int ms) {
  PollFd p{};
  p.fd = s;
  p.events = events;
  return Poll(&p, 1, ms) > 0;
}

}  // namespace net
}  // namespace lh
