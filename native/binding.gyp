# The Longhaul socket addon: set socket buffers before the handshake and read
# what the kernel really did (TCP_INFO). N-API only, so one binary per platform
# serves Node and Electron alike. Build: npm run build:native (node-gyp).
{
  "targets": [
    {
      "target_name": "longhaul_native",
      "sources": [
        "src/addon.cc",
        "src/congestion.cc",
        "src/owned_conn.cc",
        "src/pacing_rate.cc",
        "src/payload_file.cc",
        "src/relay_pump.cc",
        "src/sender_group.cc",
        "src/socket_handoff.cc",
        "src/socket_posix.cc",
        "src/socket_win.cc",
        "src/stream_pump.cc",
        "src/tcp_info_linux.cc",
        "src/tcp_info_mac.cc",
        "src/tcp_info_win.cc",
        "src/udp_send.cc",
        "src/window_clamp.cc"
      ],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api"],
      "defines": ["NAPI_VERSION=8"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra"],
      "conditions": [
        ["OS=='win'", { "libraries": ["ws2_32.lib"], "defines": ["NOMINMAX", "WIN32_LEAN_AND_MEAN"] }],
        ["OS=='mac'", { "xcode_settings": { "MACOSX_DEPLOYMENT_TARGET": "10.15", "CLANG_CXX_LANGUAGE_STANDARD": "c++17" } }]
      ]
    }
  ]
}
