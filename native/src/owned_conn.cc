// Windows' data path (electron/native/data-conn.ts 'owned'; the accepting side is
// electron/engine/data-plane/windows-owned-listener.ts, the loop data-worker/windows-owned-loop.ts).
// Data connections owned by the addon from the first SYN to the close, for
// the platforms where Node can neither expose nor adopt a socket (Windows):
// the JS side creates the socket with its window set (createTcpSocket and the
// window calls), then these functions connect it, or bind it as a listener and
// accept from it, and move the data header, all with bounded waits. The bytes
// then move in stream_pump.cc's loops on the same handle.
//
//   connectStream(fd, { address, port, timeoutMs, header }, cb(err))
//   bindListen(fd, address, port, backlog) -> port
//   acceptStream(fd, timeoutMs, cb(err, null | { fd, address, port }))
//   readExact(fd, bytes, timeoutMs, cb(err, Buffer))
//   shutdownSend(fd)
//
// Handing an accepted socket to a worker process is socket_handoff.cc.
// The blocking parts run on libuv's thread pool (Napi::AsyncWorker); each
// wait is at most the caller's timeout, so a pool thread is never held longer.
#include <napi.h>

#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>

#include "lh_napi.h"
#include "lh_net.h"
#include "lh_socket.h"

namespace lh {
namespace {

using net::Sock;

// The handle type the bindings read (lh_socket.h) is the one the socket calls take (lh_net.h).
static_assert(std::is_same<Sock, SockHandle>::value, "SockHandle and net::Sock must be one type");

// An IPv4 or IPv6 literal and a port as a sockaddr; false for anything else (names are resolved in JS).
bool ToSockaddr(const std::string& address, int port, sockaddr_storage* ss, socklen_t* len) {
  std::memset(ss, 0, sizeof *ss);
  auto* v4 = reinterpret_cast<sockaddr_in*>(ss);
  if (inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    *len = sizeof *v4;
    return true;
  }
  auto* v6 = reinterpret_cast<sockaddr_in6*>(ss);
  if (inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    *len = sizeof *v6;
    return true;
  }
  return false;
}

void FromSockaddr(const sockaddr_storage& ss, std::string* address, int* port) {
  char buf[INET6_ADDRSTRLEN] = {0};
  if (ss.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&ss);
    inet_ntop(AF_INET6, const_cast<in6_addr*>(&v6->sin6_addr), buf, sizeof buf);
    *port = ntohs(v6->sin6_port);
  } else {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&ss);
    inet_ntop(AF_INET, const_cast<in_addr*>(&v4->sin_addr), buf, sizeof buf);
    *port = ntohs(v4->sin_port);
  }
  *address = buf;
}

int64_t MsLeft(std::chrono::steady_clock::time_point until) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
  return left < 0 ? 0 : left;
}

// Write all of `data` to a non-blocking socket before `until`; 0 or an OS error code.
int SendAll(Sock s, const char* data, size_t n, std::chrono::steady_clock::time_point until, const char** where) {
  size_t off = 0;
  while (off < n) {
    long long k = net::SendSome(s, data + off, n - off);
    if (k > 0) {
      off += static_cast<size_t>(k);
      continue;
    }
    int e = net::LastError();
    if (k < 0 && (net::WouldBlock(e) || net::Interrupted(e))) {
      int64_t left = MsLeft(until);
      if (left == 0) return *where = "send(header)", net::kTimedOut;
      net::WaitOne(s, net::kPollOut, static_cast<int>(left));
      continue;
    }
    *where = "send(header)";
    return k < 0 ? e : net::kConnReset;
  }
  return 0;
}

// An AsyncWorker whose failure is an OS error (code and where), handed to JS with `errno`.
class OsWorker : public Napi::AsyncWorker {
 protected:
  OsWorker(Napi::Function cb, const char* name) : Napi::AsyncWorker(cb, name) {}
  void Fail(int code, const std::string& where) {
    code_ = code;
    where_ = where;
    SetError(where);
  }
  Napi::Value ErrorValue() {
    return (code_ ? OsErrorValue(Env(), code_, where_) : Napi::Error::New(Env(), where_)).Value();
  }

 private:
  int code_ = 0;
  std::string where_;
};

// connectStream(fd, { address, port, timeoutMs, header }, cb(err))
class ConnectWorker : public OsWorker {
 public:
  ConnectWorker(Napi::Function cb, Sock s, std::string address, int port, int timeoutMs, std::string header)
      : OsWorker(cb, "longhaul-connect"), s_(s), address_(std::move(address)), port_(port), timeoutMs_(timeoutMs),
        header_(std::move(header)) {}

  void Execute() override {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs_);
    sockaddr_storage ss;
    socklen_t len = 0;
    if (!ToSockaddr(address_, port_, &ss, &len)) return Fail(0, "connect: not an IP address: " + address_);
    if (!net::SetNonBlocking(s_)) return Fail(net::LastError(), "ioctl(non-blocking)");
    if (::connect(s_, reinterpret_cast<sockaddr*>(&ss), len) != 0) {
      int e = net::LastError();
      if (!net::InProgress(e)) return Fail(e, "connect");
      for (;;) {
        int64_t left = MsLeft(until);
        if (left == 0) return Fail(net::kTimedOut, "connect");
        if (net::WaitOne(s_, net::kPollOut, static_cast<int>(left))) break;
      }
      int soErr = 0;
      socklen_t l = sizeof soErr;
      if (getsockopt(s_, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&soErr), &l) != 0) return Fail(net::LastError(), "getsockopt(SO_ERROR)");
      if (soErr != 0) return Fail(soErr, "connect");
    }
    const char* where = "";
    int e = SendAll(s_, header_.data(), header_.size(), until, &where);
    if (e != 0) return Fail(e, where);
  }

  void OnError(const Napi::Error&) override { Callback().Call({ErrorValue()}); }

 private:
  Sock s_;
  std::string address_;
  int port_;
  int timeoutMs_;
  std::string header_;
};

Napi::Value ConnectStream(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 3 || !ReadSock(info[0], &s) || !info[1].IsObject() || !info[2].IsFunction()) {
    Napi::TypeError::New(env, "connectStream(fd, { address, port, timeoutMs, header }, cb) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object o = info[1].As<Napi::Object>();
  Napi::Value address = o.Get("address"), port = o.Get("port"), timeout = o.Get("timeoutMs"), header = o.Get("header");
  if (!address.IsString() || !port.IsNumber() || !timeout.IsNumber() || !header.IsBuffer()) {
    Napi::TypeError::New(env, "connectStream options: address (IP literal), port, timeoutMs and header (Buffer) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Buffer<char> h = header.As<Napi::Buffer<char>>();
  auto* w = new ConnectWorker(info[2].As<Napi::Function>(), s, address.As<Napi::String>().Utf8Value(), port.As<Napi::Number>().Int32Value(),
                              timeout.As<Napi::Number>().Int32Value(), std::string(h.Data(), h.Length()));
  w->Queue();
  return env.Undefined();
}

// bindListen(fd, address, port, backlog) -> the bound port
Napi::Value BindListen(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 4 || !ReadSock(info[0], &s) || !info[1].IsString() || !info[2].IsNumber() || !info[3].IsNumber()) {
    Napi::TypeError::New(env, "bindListen(fd, address, port, backlog) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  sockaddr_storage ss;
  socklen_t len = 0;
  std::string address = info[1].As<Napi::String>().Utf8Value();
  if (!ToSockaddr(address, info[2].As<Napi::Number>().Int32Value(), &ss, &len)) {
    Napi::TypeError::New(env, "bindListen: not an IP address: " + address).ThrowAsJavaScriptException();
    return env.Undefined();
  }
#ifdef _WIN32
  // No other process may bind the same port while this one listens on it.
  BOOL excl = TRUE;
  setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&excl), sizeof excl);
#endif
  if (::bind(s, reinterpret_cast<sockaddr*>(&ss), len) != 0) {
    OsErrorValue(env, net::LastError(), "bind").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  if (::listen(s, info[3].As<Napi::Number>().Int32Value()) != 0) {
    OsErrorValue(env, net::LastError(), "listen").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  sockaddr_storage bound;
  socklen_t blen = sizeof bound;
  if (getsockname(s, reinterpret_cast<sockaddr*>(&bound), &blen) != 0) {
    OsErrorValue(env, net::LastError(), "getsockname").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  std::string a;
  int port = 0;
  FromSockaddr(bound, &a, &port);
  return Napi::Number::New(env, port);
}

// acceptStream(fd, timeoutMs, cb(err, null | { fd, address, port })): null when nothing arrived in time.
class AcceptWorker : public OsWorker {
 public:
  AcceptWorker(Napi::Function cb, Sock s, int timeoutMs) : OsWorker(cb, "longhaul-accept"), s_(s), timeoutMs_(timeoutMs) {}

  void Execute() override {
    if (!net::WaitOne(s_, net::kPollIn, timeoutMs_)) return;
    sockaddr_storage ss;
    socklen_t len = sizeof ss;
    Sock c = ::accept(s_, reinterpret_cast<sockaddr*>(&ss), &len);
    if (c == net::kBadSock) {
      int e = net::LastError();
      // Gone between the wake-up and the accept (a reset in the queue): nothing arrived.
      if (net::WouldBlock(e) || net::Interrupted(e) || e == net::kConnReset) return;
      return Fail(e, "accept");
    }
    if (!net::SetNonBlocking(c)) {
      int e = net::LastError();
      net::CloseSock(c);
      return Fail(e, "ioctl(non-blocking)");
    }
#ifdef SO_NOSIGPIPE
    int one = 1;
    setsockopt(c, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    got_ = true;
    c_ = c;
    FromSockaddr(ss, &address_, &port_);
  }

  void OnOK() override {
    Napi::Env env = Env();
    if (!got_) {
      Callback().Call({env.Null(), env.Null()});
      return;
    }
    Napi::Object r = Napi::Object::New(env);
    r.Set("fd", Napi::Number::New(env, static_cast<double>(c_)));
    r.Set("address", Napi::String::New(env, address_));
    r.Set("port", Napi::Number::New(env, port_));
    Callback().Call({env.Null(), r});
  }

  void OnError(const Napi::Error&) override { Callback().Call({ErrorValue(), Env().Null()}); }

 private:
  Sock s_;
  int timeoutMs_;
  bool got_ = false;
  Sock c_ = net::kBadSock;
  std::string address_;
  int port_ = 0;
};

Napi::Value AcceptStream(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 3 || !ReadSock(info[0], &s) || !info[1].IsNumber() || !info[2].IsFunction()) {
    Napi::TypeError::New(env, "acceptStream(fd, timeoutMs, cb) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  (new AcceptWorker(info[2].As<Napi::Function>(), s, info[1].As<Napi::Number>().Int32Value()))->Queue();
  return env.Undefined();
}

// readExact(fd, bytes, timeoutMs, cb(err, Buffer)): exactly `bytes` (never more) before the timeout.
class ReadWorker : public OsWorker {
 public:
  ReadWorker(Napi::Function cb, Sock s, size_t n, int timeoutMs)
      : OsWorker(cb, "longhaul-read"), s_(s), buf_(n, '\0'), timeoutMs_(timeoutMs) {}

  void Execute() override {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs_);
    size_t off = 0;
    while (off < buf_.size()) {
      long long k = net::RecvSome(s_, &buf_[off], buf_.size() - off);
      if (k > 0) {
        off += static_cast<size_t>(k);
        continue;
      }
      if (k == 0) return Fail(net::kConnReset, "recv(header): closed before the header was complete");
      int e = net::LastError();
      if (!net::WouldBlock(e) && !net::Interrupted(e)) return Fail(e, "recv(header)");
      int64_t left = MsLeft(until);
      if (left == 0) return Fail(net::kTimedOut, "recv(header)");
      net::WaitOne(s_, net::kPollIn, static_cast<int>(left));
    }
  }

  void OnOK() override { Callback().Call({Env().Null(), Napi::Buffer<char>::Copy(Env(), buf_.data(), buf_.size())}); }
  void OnError(const Napi::Error&) override { Callback().Call({ErrorValue(), Env().Null()}); }

 private:
  Sock s_;
  std::string buf_;
  int timeoutMs_;
};

Napi::Value ReadExact(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 4 || !ReadSock(info[0], &s) || !info[1].IsNumber() || !info[2].IsNumber() || !info[3].IsFunction() ||
      info[1].As<Napi::Number>().Int64Value() < 1 || info[1].As<Napi::Number>().Int64Value() > 65536) {
    Napi::TypeError::New(env, "readExact(fd, bytes (1..65536), timeoutMs, cb) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  (new ReadWorker(info[3].As<Napi::Function>(), s, static_cast<size_t>(info[1].As<Napi::Number>().Int64Value()),
                  info[2].As<Napi::Number>().Int32Value()))->Queue();
  return env.Undefined();
}

// shutdownSend(fd): our FIN, after the last byte.
Napi::Value ShutdownSend(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 1 || !ReadSock(info[0], &s)) {
    Napi::TypeError::New(env, "shutdownSend(fd) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  int e = net::ShutdownSend(s);
  if (e != 0) OsErrorValue(env, e, "shutdown").ThrowAsJavaScriptException();
  return env.Undefined();
}

}  // namespace

void RegisterOwnedConn(Napi::Env env, Napi::Object exports) {
  exports.Set("connectStream", Napi::Function::New(env, ConnectStream, "connectStream"));
  exports.Set("bindListen", Napi::Function::New(env, BindListen, "bindListen"));
  exports.Set("acceptStream", Napi::Function::New(env, AcceptStream, "acceptStream"));
  exports.Set("readExact", Napi::Function::New(env, ReadExact, "readExact"));
  exports.Set("shutdownSend", Napi::Function::New(env, ShutdownSend, "shutdownSend"));
}

}  // namespace lh
