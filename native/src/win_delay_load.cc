// The mingw-w64 build of the addon (scripts/windows-lane/) imports Node-API from
// "node.exe" through a delay-load import library. This file makes those imports
// bind to whatever executable hosts the addon: node.exe, or Longhaul.exe (Electron;
// its data workers run with ELECTRON_RUN_AS_NODE), which exports the same napi_*
// functions. It is node-gyp's win_delay_load_hook.cc for mingw-w64, plus one thing
// node-gyp does not need:
//
// - Every import is bound when the DLL loads (DllMain), not at its first call.
//   binutils' x86-64 delay-load thunk (dlltool 2.40, checked with objdump) saves the
//   integer argument registers around __delayLoadHelper2 but not XMM0-3, so a first
//   call of napi_create_double(env, value, ...) could receive a clobbered `value`
//   (measured under Wine: 1.5 arrived as 9.7e-317; test/windows/addon-hosts.test.ts).
//   Binding up front means the lazy thunk never runs on a live call. mingw-w64's
//   __HrLoadAllImportsForDll cannot do it: it looks the DLL up in the PE's delay-import
//   directory, which GNU ld leaves empty (it returns ERROR_MOD_NOT_FOUND), so the loop
//   below walks dlltool's descriptor instead.
// - A napi_* function the host lacks (an older Electron) makes DllMain fail, so
//   require() throws "A dynamic link library (DLL) initialization routine failed"
//   and Longhaul runs without the addon, saying so, as when the addon is missing.
//
// MSVC builds (node-gyp on Windows) link node-gyp's own hook; this file is empty
// there, and it is compiled only by the Windows lane, not listed in binding.gyp.
#if defined(_WIN32) && defined(__MINGW32__)

#include <windows.h>
#include <delayimp.h>
#include <string.h>

// The descriptor dlltool emits in the delay-load import library, named after that
// library's file (__DELAY_IMPORT_DESCRIPTOR_<file>); the build passes its name.
#ifndef LH_NODE_API_DELAY_DESCRIPTOR
#error "build with npm run build:native:win (scripts/windows-lane/build-native-win.ts defines LH_NODE_API_DELAY_DESCRIPTOR)"
#endif

extern "C" const ImgDelayDescr LH_NODE_API_DELAY_DESCRIPTOR;
extern "C" FARPROC WINAPI __delayLoadHelper2(PCImgDelayDescr, FARPROC*);
extern "C" IMAGE_DOS_HEADER __ImageBase;

namespace {

// The DLL name the import library was made with (LIBRARY in the .def).
const char kHostDll[] = "node.exe";

bool g_missingImport = false;

FARPROC WINAPI LoadHostHook(unsigned event, PDelayLoadInfo info) {
  if (event != dliNotePreLoadLibrary || _stricmp(info->szDll, kHostDll) != 0) return nullptr;
  // Node built as a DLL (vcbuild.bat dll) exports Node-API from libnode.dll.
  HMODULE host = GetModuleHandleA("libnode.dll");
  if (host == nullptr) host = GetModuleHandleA(nullptr);
  return reinterpret_cast<FARPROC>(host);
}

void MissingImport() {
  // Never reached: DllMain refuses to load when an import is missing.
  FatalAppExitA(0, "longhaul_native: a Node-API function is missing from the host executable");
}

FARPROC WINAPI FailureHook(unsigned event, PDelayLoadInfo info) {
  if (event != dliFailGetProc || _stricmp(info->szDll, kHostDll) != 0) return nullptr;
  g_missingImport = true;
  return reinterpret_cast<FARPROC>(MissingImport);
}

// Resolves every entry of the delay-load IAT now, through the same helper and hooks a
// lazy call would use. False when an import is missing from the host.
bool BindAllImports() {
  const ImgDelayDescr& d = LH_NODE_API_DELAY_DESCRIPTOR;
  if ((d.grAttrs & dlattrRva) == 0) return false;
  const char* base = reinterpret_cast<const char*>(&__ImageBase);
  auto* iat = reinterpret_cast<FARPROC*>(const_cast<char*>(base) + d.rvaIAT);
  auto* names = reinterpret_cast<const IMAGE_THUNK_DATA*>(base + d.rvaINT);
  for (size_t i = 0; names[i].u1.AddressOfData != 0; ++i) __delayLoadHelper2(&d, &iat[i]);
  return !g_missingImport;
}

}  // namespace

// mingw-w64's __delayLoadHelper2 (libmingwex) calls these; defining them here
// keeps libmingwex's NULL defaults (delay-n.o, delay-f.o) out of the link.
// (delayimp.h has declared them extern "C".)
PfnDliHook __pfnDliNotifyHook2 = LoadHostHook;
PfnDliHook __pfnDliFailureHook2 = FailureHook;

extern "C" BOOL WINAPI DllMain(HINSTANCE, DWORD reason, LPVOID) {
  if (reason != DLL_PROCESS_ATTACH) return TRUE;
  // Only GetModuleHandle and GetProcAddress run here (no LoadLibrary): allowed under the loader lock.
  return BindAllImports() ? TRUE : FALSE;
}

#endif  // _WIN32 && __MINGW32__
