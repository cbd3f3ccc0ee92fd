/**
 * A stand-in NSIS plugin: a PE32 DLL that holds nothing but an export table
 * naming the plugin's functions. makensis learns a plugin's commands by reading
 * that table (it never loads the DLL), so with a stand-in in a plugin folder a
 * script that calls `UAC::_` gets past that call and makensis reports the next
 * thing it cannot resolve. nsis-plugins.ts uses this to list every missing plugin
 * function in one run. An installer compiled against a stand-in would crash at
 * the call: these DLLs only ever go to a scratch folder, never into a package.
 *
 * Layout (PE/COFF spec): DOS header → "PE\0\0" → COFF header (i386, DLL) →
 * PE32 optional header (16 data directories, [0] = exports) → one section
 * ".edata" at RVA 0x1000, file offset 0x200, holding the export directory,
 * its three arrays (functions, names sorted as the loader expects, ordinals)
 * and the strings.
 */

const FILE_ALIGN = 0x200;
const SECTION_RVA = 0x1000;
const PE_OFFSET = 0x40;
const COFF_SIZE = 20;
const OPTIONAL_SIZE = 0xe0;
const SECTION_HEADER_SIZE = 40;
const EXPORT_DIR_SIZE = 40;

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/** The DLL bytes for plugin `dllName` (e.g. `UAC`) exporting `functions`. */
export function stubPluginDll(dllName: string, functions: string[]): Buffer {
  const names = [...new Set(functions)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) throw new Error(`a stand-in plugin needs at least one function (${dllName})`);
  // .edata contents, as offsets from the section start.
  const funcsAt = EXPORT_DIR_SIZE;
  const namePtrsAt = funcsAt + 4 * names.length;
  const ordinalsAt = namePtrsAt + 4 * names.length;
  let stringsAt = ordinalsAt + 2 * names.length;
  // The DLL's name first, then one string per export, in `names` order.
  const strings = [`${dllName}.dll`, ...names].map((text) => {
    const at = stringsAt;
    stringsAt += Buffer.byteLength(text, 'latin1') + 1;
    return { at, text };
  });
  const [dllString, ...exportStrings] = strings;
  if (!dllString) throw new Error('unreachable: the DLL name string is the first');
  const dataSize = stringsAt;
  const rawSize = align(dataSize, FILE_ALIGN);
  const buf = Buffer.alloc(FILE_ALIGN + rawSize);

  buf.write('MZ', 0, 'latin1');
  buf.writeUInt32LE(PE_OFFSET, 0x3c);
  buf.write('PE\0\0', PE_OFFSET, 'latin1');
  const coff = PE_OFFSET + 4;
  buf.writeUInt16LE(0x014c, coff); // Machine: i386 (the x86-unicode stub)
  buf.writeUInt16LE(1, coff + 2); // NumberOfSections
  buf.writeUInt16LE(OPTIONAL_SIZE, coff + 16);
  buf.writeUInt16LE(0x2000 | 0x0100 | 0x0002, coff + 18); // DLL | 32BIT_MACHINE | EXECUTABLE_IMAGE

  const opt = coff + COFF_SIZE;
  buf.writeUInt16LE(0x010b, opt); // PE32
  buf.writeUInt32LE(SECTION_RVA, opt + 24); // BaseOfData
  buf.writeUInt32LE(0x10000000, opt + 28); // ImageBase
  buf.writeUInt32LE(0x1000, opt + 32); // SectionAlignment
  buf.writeUInt32LE(FILE_ALIGN, opt + 36);
  buf.writeUInt16LE(4, opt + 40); // OS version 4.0
  buf.writeUInt16LE(4, opt + 48); // subsystem version 4.0
  buf.writeUInt32LE(SECTION_RVA + align(dataSize, 0x1000), opt + 56); // SizeOfImage
  buf.writeUInt32LE(FILE_ALIGN, opt + 60); // SizeOfHeaders
  buf.writeUInt16LE(2, opt + 68); // Subsystem: Windows GUI
  buf.writeUInt32LE(16, opt + 92); // NumberOfRvaAndSizes
  buf.writeUInt32LE(SECTION_RVA, opt + 96); // DataDirectory[EXPORT].VirtualAddress
  buf.writeUInt32LE(dataSize, opt + 100);

  const sh = opt + OPTIONAL_SIZE;
  buf.write('.edata', sh, 'latin1');
  buf.writeUInt32LE(dataSize, sh + 8); // VirtualSize
  buf.writeUInt32LE(SECTION_RVA, sh + 12);
  buf.writeUInt32LE(rawSize, sh + 16); // SizeOfRawData
  buf.writeUInt32LE(FILE_ALIGN, sh + 20); // PointerToRawData
  buf.writeUInt32LE(0x40000040, sh + 36); // INITIALIZED_DATA | MEM_READ
  if (sh + SECTION_HEADER_SIZE > FILE_ALIGN) throw new Error('PE headers overflow their 0x200 bytes');

  const sec = FILE_ALIGN;
  const rva = (offset: number): number => SECTION_RVA + offset;
  buf.writeUInt32LE(rva(dllString.at), sec + 12); // Name
  buf.writeUInt32LE(1, sec + 16); // Base ordinal
  buf.writeUInt32LE(names.length, sec + 20); // NumberOfFunctions
  buf.writeUInt32LE(names.length, sec + 24); // NumberOfNames
  buf.writeUInt32LE(rva(funcsAt), sec + 28);
  buf.writeUInt32LE(rva(namePtrsAt), sec + 32);
  buf.writeUInt32LE(rva(ordinalsAt), sec + 36);
  exportStrings.forEach((name, i) => {
    // Every export points at the DLL's name string: there is no code to point at.
    buf.writeUInt32LE(rva(dllString.at), sec + funcsAt + 4 * i);
    buf.writeUInt32LE(rva(name.at), sec + namePtrsAt + 4 * i);
    buf.writeUInt16LE(i, sec + ordinalsAt + 2 * i);
  });
  for (const s of strings) buf.write(s.text, sec + s.at, 'latin1');
  return buf;
}
