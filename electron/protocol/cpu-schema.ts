/**
 * One side's CPU use over the transfer (contract/result.ts `CpuUse`), as a peer
 * sends it with its results. Every figure is bounded: a peer's numbers go into
 * the result document and the report as they come.
 */
import { z } from 'zod';
import type { CpuUse } from '../contract/result.js';

const seconds = z.number().min(0).max(1e9);
const share = z.number().min(0).max(1e6);

const dataThreadCpuSchema = z.object({
  kind: z.enum(['sender', 'receiver']),
  streams: z.array(z.number().int().min(0).max(255)).max(256),
  cpuSeconds: seconds,
  shareOfOneCore: share,
  waitSeconds: seconds.nullable().optional(),
});

const fraction = z.number().min(0).max(1);

const pcCpuSchema = z.object({
  busyShare: fraction,
  interruptShare: fraction.nullable(),
  stealShare: fraction.nullable(),
  source: z.enum(['proc-stat', 'os-cpus']),
});

export const cpuUseSchema = z.object({
  userSeconds: seconds,
  systemSeconds: seconds,
  wallSeconds: seconds,
  cores: z.number().int().min(1).max(65_536),
  shareOfOneCore: share,
  shareOfPc: share,
  coresKnown: z.literal(false).optional(),
  threads: z.array(dataThreadCpuSchema).max(256).nullable(),
  pc: pcCpuSchema.nullable().optional(),
}) satisfies z.ZodType<CpuUse>;
