// The emulator of ../shared/tools/rp2emu, loaded from the folder RP2EMU names (it is set up
// outside the project, as its README says): the benchmarks' node scripts share this.
import path from 'path';
import { pathToFileURL } from 'url';

export async function loadBoardEmu() {
  const emuDir = process.env.RP2EMU;
  if (!emuDir) {
    console.error('set RP2EMU to the emulator folder');
    process.exit(2);
  }
  return (await import(pathToFileURL(path.resolve(emuDir, 'board-emu.mjs')).href)).BoardEmu;
}
