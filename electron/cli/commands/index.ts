/**
 * Every sub-command of `longhaul`, under the heading and in the order `--help`
 * lists them. Each module exports `register(program)`; add a line here for a new one.
 */
import type { Command } from 'commander';
import { register as registerListen } from './listen.js';
import { register as registerRun } from './run.js';
import { register as registerLoopback } from './loopback.js';
import { register as registerSweep } from './sweep.js';
import { register as registerSchedule } from './schedule.js';
import { register as registerReport } from './report.js';
import { register as registerHistory } from './history.js';
import { register as registerBdp } from './bdp.js';
import { register as registerDoctor } from './doctor.js';
import { register as registerProxy } from './proxy.js';
import { register as registerUi } from './ui.js';
import { register as registerPair } from './pair.js';
import { register as registerPeers } from './peers.js';

export const COMMAND_GROUPS: ReadonlyArray<{ heading: string; commands: ReadonlyArray<(program: Command) => void> }> = [
  { heading: 'Test:', commands: [registerRun, registerLoopback, registerSweep, registerSchedule] },
  { heading: 'Set up:', commands: [registerListen, registerPair, registerPeers, registerUi] },
  { heading: 'Reports and tools:', commands: [registerReport, registerHistory, registerBdp, registerDoctor, registerProxy] },
];
