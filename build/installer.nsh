; Longhaul's additions to electron-builder's NSIS installer (nsis.include).
;
; Windows Defender Firewall: the responder ("Wait for a partner", `longhaul listen`)
; must accept inbound TCP from the other PC. Adding a firewall rule needs admin
; rights, so it is done only when the installer runs elevated (the user chose
; "Anyone who uses this computer", or started the installer as administrator).
; A per-user install (the default, no admin) adds nothing: on the first listen,
; Windows shows its own prompt, and the app explains what to allow when a partner
; cannot reach it (electron/app/firewall-guidance.ts).
;
; The rule is bound to the program, not to a port: Longhaul listens on any port
; the user picks, and its data workers are the same executable
; (Electron's fork() runs Longhaul.exe with ELECTRON_RUN_AS_NODE=1).
; Profiles: private and domain only. A network Windows calls "Public" (cafés,
; airports) stays closed; the app says how to mark a test network as Private.

!define LONGHAUL_FW_RULE "Longhaul (TCP throughput test responder)"

!macro customInstall
  ${If} ${UAC_IsAdmin}
    DetailPrint "Adding a Windows Defender Firewall rule for $INSTDIR\${APP_EXECUTABLE_FILENAME}"
    ; Remove a rule left by an earlier install first, so reinstalling never duplicates it.
    nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall delete rule name="${LONGHAUL_FW_RULE}"'
    Pop $0
    nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall add rule name="${LONGHAUL_FW_RULE}" dir=in action=allow program="$INSTDIR\${APP_EXECUTABLE_FILENAME}" protocol=TCP profile=private,domain enable=yes'
    Pop $0
    ${If} $0 != 0
      DetailPrint "The firewall rule could not be added (netsh exit code $0). Longhaul will explain what to allow when a partner cannot connect."
    ${EndIf}
  ${Else}
    DetailPrint "Installed for this user only (no admin rights): no firewall rule added. Windows asks on the first 'Wait for a partner'."
  ${EndIf}
!macroend

!macro customUnInstall
  ${If} ${UAC_IsAdmin}
    ; Deleting a rule that does not exist is harmless (netsh exits 1, nothing changes).
    nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall delete rule name="${LONGHAUL_FW_RULE}"'
    Pop $0
  ${EndIf}
!macroend
