// Handing a socket to another process. Windows: WSADuplicateSocketW in the process that has
// it, for the target's pid, gives a WSAPROTOCOL_INFOW blob; the target opens it with
// WSASocketW(FROM_PROTOCOL_INFO). The responder's engine accepts a run's data connections
// (owned_conn.cc) and its data workers take them this way. POSIX passes descriptors through
// Node's own handle passing instead, so both calls throw ENOTSUP there.
//
//   duplicateSocket(fd, pid) -> Buffer
//   socketFromDuplicate(Buffer) -> fd
#include <napi.h>

#include <cerrno>
#include <cstring>

#include "lh_napi.h"
#include "lh_net.h"
#include "lh_socket.h"

namespace lh {
namespace {

using net::Sock;

// duplicateSocket(fd, pid) -> Buffer: the socket for another process (Windows), which opens it with socketFromDuplicate.
Napi::Value DuplicateSocket(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Sock s;
  if (info.Length() < 2 || !ReadSock(info[0], &s) || !info[1].IsNumber()) {
    Napi::TypeError::New(env, "duplicateSocket(fd, pid) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
#ifdef _WIN32
  WSAPROTOCOL_INFOW pi;
  if (WSADuplicateSocketW(s, static_cast<DWORD>(info[1].As<Napi::Number>().Int64Value()), &pi) != 0) {
    OsErrorValue(env, net::LastError(), "WSADuplicateSocketW").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  return Napi::Buffer<char>::Copy(env, reinterpret_cast<const char*>(&pi), sizeof pi);
#else
  OsErrorValue(env, ENOTSUP, "duplicateSocket (Windows only; POSIX passes descriptors through Node)").ThrowAsJavaScriptException();
  return env.Undefined();
#endif
}

// socketFromDuplicate(Buffer) -> fd
Napi::Value SocketFromDuplicate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsBuffer()) {
    Napi::TypeError::New(env, "socketFromDuplicate(buffer) expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
#ifdef _WIN32
  Napi::Buffer<char> b = info[0].As<Napi::Buffer<char>>();
  if (b.Length() != sizeof(WSAPROTOCOL_INFOW)) {
    Napi::TypeError::New(env, "socketFromDuplicate: not a WSAPROTOCOL_INFOW").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  WSAPROTOCOL_INFOW pi;
  std::memcpy(&pi, b.Data(), sizeof pi);
  SOCKET s = WSASocketW(FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, &pi, 0, WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET) {
    OsErrorValue(env, net::LastError(), "WSASocketW(FROM_PROTOCOL_INFO)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  net::SetNonBlocking(s);
  return Napi::Number::New(env, static_cast<double>(s));
#else
  OsErrorValue(env, ENOTSUP, "socketFromDuplicate (Windows only)").ThrowAsJavaScriptException();
  return env.Undefined();
#endif
}

}  // namespace

void RegisterSocketHandoff(Napi::Env env, Napi::Object exports) {
  exports.Set("duplicateSocket", Napi::Function::New(env, DuplicateSocket, "duplicateSocket"));
  exports.Set("socketFromDuplicate", Napi::Function::New(env, SocketFromDuplicate, "socketFromDuplicate"));
}

}  // namespace lh
