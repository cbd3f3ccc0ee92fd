// Socket creation and buffer options on Windows (Winsock). Written from the
// Winsock documentation (socket, setsockopt SO_SNDBUF/SO_RCVBUF, TCP_NODELAY);
// cross-built with mingw-w64 and tested under Wine by the Windows lane (test/windows/).
// Windows does not double buffer sizes and has no buffer-lock option.
#ifdef _WIN32

#include "lh_socket.h"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <string>

namespace lh {

// The system's text for a Winsock error, with its number (WSAE… codes are what people search
// for); Wine has no text for many of them, so the number alone must say it.
std::string ErrorText(int code) {
  char buf[256] = {0};
  FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, static_cast<DWORD>(code), 0, buf,
                 sizeof buf, nullptr);
  std::string text(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '.')) text.pop_back();
  return (text.empty() ? std::string("error") : text) + " (" + std::to_string(code) + ")";
}

static OsError Fail(const char* where) {
  OsError e;
  e.code = WSAGetLastError();
  e.where = where;
  return e;
}

static OsError SetInt(SOCKET s, int level, int name, int64_t value, const char* where) {
  int v = value > 0x7fffffff ? 0x7fffffff : static_cast<int>(value);
  if (setsockopt(s, level, name, reinterpret_cast<const char*>(&v), sizeof v) != 0) return Fail(where);
  return OsError();
}

OsError CreateTcpSocket(const SocketOptions& opts, SockHandle* out, std::string* warnings) {
  (void)warnings;
  SOCKET s = WSASocketW(opts.family == 6 ? AF_INET6 : AF_INET, SOCK_STREAM, IPPROTO_TCP, nullptr, 0,
                        WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET) return Fail("WSASocket");
  OsError e = SetBuffers(static_cast<SockHandle>(s), opts.sndBufBytes, opts.rcvBufBytes);
  if (e.ok() && opts.noDelay) e = SetInt(s, IPPROTO_TCP, TCP_NODELAY, 1, "setsockopt(TCP_NODELAY)");
  if (!e.ok()) {
    closesocket(s);
    return e;
  }
  *out = static_cast<SockHandle>(s);
  return OsError();
}

OsError SetBuffers(SockHandle h, int64_t sndBufBytes, int64_t rcvBufBytes) {
  SOCKET s = static_cast<SOCKET>(h);
  if (sndBufBytes > 0) {
    OsError e = SetInt(s, SOL_SOCKET, SO_SNDBUF, sndBufBytes, "setsockopt(SO_SNDBUF)");
    if (!e.ok()) return e;
  }
  if (rcvBufBytes > 0) return SetInt(s, SOL_SOCKET, SO_RCVBUF, rcvBufBytes, "setsockopt(SO_RCVBUF)");
  return OsError();
}

OsError GetBuffers(SockHandle h, Buffers* out) {
  SOCKET s = static_cast<SOCKET>(h);
  int v = 0;
  int len = sizeof v;
  if (getsockopt(s, SOL_SOCKET, SO_SNDBUF, reinterpret_cast<char*>(&v), &len) != 0) return Fail("getsockopt(SO_SNDBUF)");
  out->sndBufBytes.set(v);
  len = sizeof v;
  if (getsockopt(s, SOL_SOCKET, SO_RCVBUF, reinterpret_cast<char*>(&v), &len) != 0) return Fail("getsockopt(SO_RCVBUF)");
  out->rcvBufBytes.set(v);
  return OsError();
}

OsError SetBufferLocks(SockHandle, bool, bool) {
  OsError e;
  e.code = WSAEOPNOTSUPP;
  e.where = "SO_BUF_LOCK (Linux only)";
  return e;
}

// ws2ipdef.h's value; older mingw-w64 headers do not define it.
#ifndef TCP_MAXSEG
#define TCP_MAXSEG 4
#endif

// Windows documents TCP_MAXSEG as readable only (Windows 10 and later): a set is tried, and
// its refusal (or Wine's) reaches the result as the OS said it.
OsError SetMaxSeg(SockHandle h, int64_t bytes) {
  return SetInt(static_cast<SOCKET>(h), IPPROTO_TCP, TCP_MAXSEG, bytes, "setsockopt(TCP_MAXSEG)");
}

OsError GetMaxSeg(SockHandle h, int64_t* out) {
  DWORD v = 0;
  int len = sizeof v;
  if (getsockopt(static_cast<SOCKET>(h), IPPROTO_TCP, TCP_MAXSEG, reinterpret_cast<char*>(&v), &len) != 0) return Fail("getsockopt(TCP_MAXSEG)");
  *out = static_cast<int64_t>(v);
  return OsError();
}

OsError CloseSocket(SockHandle h) {
  if (closesocket(static_cast<SOCKET>(h)) != 0) return Fail("closesocket");
  return OsError();
}

}  // namespace lh

#endif  // _WIN32
