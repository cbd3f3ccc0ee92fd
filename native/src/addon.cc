// N-API bindings of the Longhaul socket addon. Every function takes and
// returns plain numbers and objects; absent OS fields become null, and OS
// errors become JS errors carrying `errno`, `syscall` and a readable message.
#include <napi.h>

#include <limits>
#include <string>

#ifdef _WIN32
#include <windows.h>
#endif

#include "lh_napi.h"
#include "lh_net.h"
#include "lh_socket.h"

namespace lh {
// stream_pump.cc: the per-stream byte loops on their own threads.
bool PumpSupported();
Napi::Function DefinePump(Napi::Env env);
void RegisterWindowClamp(Napi::Env env, Napi::Object exports);  // window_clamp.cc
void RegisterOwnedConn(Napi::Env env, Napi::Object exports);    // owned_conn.cc
void RegisterSocketHandoff(Napi::Env env, Napi::Object exports);  // socket_handoff.cc
void RegisterRelay(Napi::Env env, Napi::Object exports);          // relay_pump.cc
void RegisterCongestion(Napi::Env env, Napi::Object exports);     // congestion.cc
void RegisterPacingRate(Napi::Env env, Napi::Object exports);     // pacing_rate.cc
void RegisterUdpSend(Napi::Env env, Napi::Object exports);        // udp_send.cc

Napi::Error OsErrorValue(Napi::Env env, int code, const std::string& where) {
  Napi::Error e = Napi::Error::New(env, where + ": " + ErrorText(code));
  e.Set("errno", Napi::Number::New(env, code));
  e.Set("syscall", Napi::String::New(env, where));
  if (code == net::kTimedOut) e.Set("code", Napi::String::New(env, "ETIMEDOUT"));
  return e;
}

bool ReadSock(const Napi::Value& v, SockHandle* out) {
  if (!v.IsNumber()) return false;
  int64_t n = v.As<Napi::Number>().Int64Value();
  if (n < 0) return false;
  *out = static_cast<SockHandle>(n);
  return true;
}
}  // namespace lh

namespace {

Napi::Value ThrowOs(Napi::Env env, const lh::OsError& e) {
  lh::OsErrorValue(env, e.code, e.where).ThrowAsJavaScriptException();
  return env.Undefined();
}

Napi::Value ThrowType(Napi::Env env, const char* msg) {
  Napi::TypeError::New(env, msg).ThrowAsJavaScriptException();
  return env.Undefined();
}

bool ReadHandle(const Napi::CallbackInfo& info, size_t i, lh::SockHandle* out) {
  return info.Length() > i && lh::ReadSock(info[i], out);
}

int64_t OptionalInt(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  return v.IsNumber() ? v.As<Napi::Number>().Int64Value() : 0;
}

Napi::Value FieldValue(Napi::Env env, const lh::Field& f) {
  return f.has ? Napi::Number::New(env, f.value) : env.Null();
}

Napi::Value FieldBool(Napi::Env env, const lh::Field& f) {
  return f.has ? Napi::Boolean::New(env, f.value != 0) : env.Null();
}

// createTcpSocket({ family, sndBufBytes, rcvBufBytes, noDelay, maxSegBytes }) -> { fd, warnings }
Napi::Value CreateTcpSocket(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) return ThrowType(env, "createTcpSocket(options): options must be an object");
  Napi::Object o = info[0].As<Napi::Object>();
  lh::SocketOptions opts;
  opts.family = OptionalInt(o, "family") == 6 ? 6 : 4;
  opts.sndBufBytes = OptionalInt(o, "sndBufBytes");
  opts.rcvBufBytes = OptionalInt(o, "rcvBufBytes");
  opts.maxSegBytes = OptionalInt(o, "maxSegBytes");
  Napi::Value nd = o.Get("noDelay");
  opts.noDelay = nd.IsBoolean() ? nd.As<Napi::Boolean>().Value() : true;
  lh::SockHandle s = 0;
  std::string warnings;
  lh::OsError e = lh::CreateTcpSocket(opts, &s, &warnings);
  if (!e.ok()) return ThrowOs(env, e);
  Napi::Object r = Napi::Object::New(env);
  r.Set("fd", Napi::Number::New(env, static_cast<double>(s)));
  r.Set("warnings", Napi::String::New(env, warnings));
  return r;
}

// setBuffers(fd, sndBufBytes, rcvBufBytes): 0 leaves a size alone.
Napi::Value SetBuffers(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s) || info.Length() < 3 || !info[1].IsNumber() || !info[2].IsNumber()) {
    return ThrowType(env, "setBuffers(fd, sndBufBytes, rcvBufBytes): three numbers expected");
  }
  lh::OsError e = lh::SetBuffers(s, info[1].As<Napi::Number>().Int64Value(), info[2].As<Napi::Number>().Int64Value());
  if (!e.ok()) return ThrowOs(env, e);
  return env.Undefined();
}

// getBuffers(fd) -> { sndBufBytes, rcvBufBytes, sndLocked, rcvLocked } (null where the OS does not say)
Napi::Value GetBuffers(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s)) return ThrowType(env, "getBuffers(fd): fd must be a non-negative number");
  lh::Buffers b;
  lh::OsError e = lh::GetBuffers(s, &b);
  if (!e.ok()) return ThrowOs(env, e);
  Napi::Object r = Napi::Object::New(env);
  r.Set("sndBufBytes", FieldValue(env, b.sndBufBytes));
  r.Set("rcvBufBytes", FieldValue(env, b.rcvBufBytes));
  r.Set("sndLocked", FieldBool(env, b.sndLocked));
  r.Set("rcvLocked", FieldBool(env, b.rcvLocked));
  return r;
}

// setBufferLocks(fd, sndLocked, rcvLocked): Linux SO_BUF_LOCK; unlocking re-enables autotuning.
Napi::Value SetBufferLocks(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s) || info.Length() < 3 || !info[1].IsBoolean() || !info[2].IsBoolean()) {
    return ThrowType(env, "setBufferLocks(fd, sndLocked, rcvLocked): fd and two booleans expected");
  }
  lh::OsError e = lh::SetBufferLocks(s, info[1].As<Napi::Boolean>().Value(), info[2].As<Napi::Boolean>().Value());
  if (!e.ok()) return ThrowOs(env, e);
  return env.Undefined();
}

// setMaxSeg(fd, bytes): TCP_MAXSEG; throws with the OS's error where it is refused.
Napi::Value SetMaxSeg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s) || info.Length() < 2 || !info[1].IsNumber()) return ThrowType(env, "setMaxSeg(fd, bytes): two numbers expected");
  lh::OsError e = lh::SetMaxSeg(s, info[1].As<Napi::Number>().Int64Value());
  if (!e.ok()) return ThrowOs(env, e);
  return env.Undefined();
}

// getMaxSeg(fd) -> bytes (TCP_MAXSEG as the OS reports it).
Napi::Value GetMaxSeg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s)) return ThrowType(env, "getMaxSeg(fd): fd must be a non-negative number");
  int64_t v = 0;
  lh::OsError e = lh::GetMaxSeg(s, &v);
  if (!e.ok()) return ThrowOs(env, e);
  return Napi::Number::New(env, static_cast<double>(v));
}

// closeFd(fd): for sockets never handed to Node (error paths).
Napi::Value CloseFd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s)) return ThrowType(env, "closeFd(fd): fd must be a non-negative number");
  lh::OsError e = lh::CloseSocket(s);
  if (!e.ok()) return ThrowOs(env, e);
  return env.Undefined();
}

// The TcpInfo fields in the order tcpInfoInto writes them; exported as `tcpInfoFields`
// so the JS side maps by name and the two cannot drift apart.
#define LH_TCP_FIELDS(X)                                                                              \
  X(state) X(rttUs) X(rttVarUs) X(minRttUs) X(sndCwndSegments) X(sndCwndBytes) X(sndSsthresh)        \
  X(sndMssBytes) X(rcvMssBytes) X(advMssBytes) X(pmtuBytes) X(totalRetransSegments) X(retransmitBytes) \
  X(lostSegments) X(unackedSegments) X(bytesInFlight) X(sndWndBytes) X(rcvWndBytes) X(rcvSpaceBytes)   \
  X(rcvSsthreshBytes) X(sndWscale) X(rcvWscale) X(wscaleNegotiated) X(deliveryRateBytesPerSec)         \
  X(deliveryRateAppLimited) X(busyUs) X(rwndLimitedUs) X(sndbufLimitedUs) X(cwndLimitedUs) X(bytesSent) \
  X(bytesAcked) X(bytesReceived) X(notSentBytes) X(senderLimitedUs) X(dsackDups) X(reordSeen)          \
  X(pacingRateBytesPerSec) X(dataSegsIn)

#define LH_COUNT(name) +1
const size_t kTcpFieldCount = 0 LH_TCP_FIELDS(LH_COUNT);
#undef LH_COUNT

// tcpInfoInto(fd, Float64Array) -> bytes the OS filled. One getsockopt, no allocation:
// writes each field in `tcpInfoFields` order, NaN where the OS does not report it.
Napi::Value TcpInfoInto(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  lh::SockHandle s;
  if (!ReadHandle(info, 0, &s) || info.Length() < 2 || !info[1].IsTypedArray() ||
      info[1].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array ||
      info[1].As<Napi::Float64Array>().ElementLength() < kTcpFieldCount) {
    return ThrowType(env, "tcpInfoInto(fd, out): fd must be a non-negative number and out a Float64Array of tcpInfoFields.length");
  }
  lh::TcpInfo t;
  lh::OsError e = lh::ReadTcpInfo(s, &t);
  if (!e.ok()) return ThrowOs(env, e);
  double* out = info[1].As<Napi::Float64Array>().Data();
  size_t i = 0;
#define LH_WRITE(name) out[i++] = t.name.has ? t.name.value : std::numeric_limits<double>::quiet_NaN();
  LH_TCP_FIELDS(LH_WRITE)
#undef LH_WRITE
  return Napi::Number::New(env, static_cast<double>(t.rawBytes));
}

Napi::Array TcpInfoFields(Napi::Env env) {
  Napi::Array names = Napi::Array::New(env, kTcpFieldCount);
  uint32_t i = 0;
#define LH_NAME(name) names.Set(i++, Napi::String::New(env, #name));
  LH_TCP_FIELDS(LH_NAME)
#undef LH_NAME
  return names;
}

// The Wine version when this Windows process runs under Wine (ntdll exports wine_get_version), else "".
// Results name it where Wine, not Windows, is why a figure is missing (Wine 8 has no SIO_TCP_INFO).
std::string WineVersion() {
#ifdef _WIN32
  HMODULE ntdll = GetModuleHandleA("ntdll.dll");
  if (!ntdll) return "";
  typedef const char*(__cdecl * GetVersionFn)();
  auto fn = reinterpret_cast<GetVersionFn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_version")));
  return fn ? std::string(fn()) : "";
#else
  return "";
#endif
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("wineVersion", Napi::String::New(env, WineVersion()));
  exports.Set("tcpInfoSource", Napi::String::New(env, lh::TcpInfoSource()));
  exports.Set("createTcpSocket", Napi::Function::New(env, CreateTcpSocket, "createTcpSocket"));
  exports.Set("setBuffers", Napi::Function::New(env, SetBuffers, "setBuffers"));
  exports.Set("getBuffers", Napi::Function::New(env, GetBuffers, "getBuffers"));
  exports.Set("setBufferLocks", Napi::Function::New(env, SetBufferLocks, "setBufferLocks"));
  exports.Set("closeFd", Napi::Function::New(env, CloseFd, "closeFd"));
  exports.Set("setMaxSeg", Napi::Function::New(env, SetMaxSeg, "setMaxSeg"));
  exports.Set("getMaxSeg", Napi::Function::New(env, GetMaxSeg, "getMaxSeg"));
  exports.Set("tcpInfoFields", TcpInfoFields(env));
  exports.Set("tcpInfoInto", Napi::Function::New(env, TcpInfoInto, "tcpInfoInto"));
  exports.Set("pumpSupported", Napi::Boolean::New(env, lh::PumpSupported()));
  exports.Set("Pump", lh::DefinePump(env));
  lh::RegisterWindowClamp(env, exports);
  lh::RegisterOwnedConn(env, exports);
  lh::RegisterSocketHandoff(env, exports);
  lh::RegisterRelay(env, exports);
  lh::RegisterCongestion(env, exports);
  lh::RegisterPacingRate(env, exports);
  lh::RegisterUdpSend(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(longhaul_native, Init)
