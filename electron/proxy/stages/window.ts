/**
 * `window`: a cap on the bytes in flight over the emulated path — read from
 * the sender and not yet acknowledged (an acknowledgement arrives one return
 * delay after the bytes were delivered). This is the sender's TCP window as
 * the emulated link would see it: 64 KiB over a 1.3 s round trip gives
 * 65,536 × 8 / 1.3 s ≈ 403 kbit/s. A plain delaying relay cannot show this,
 * because the sender's real TCP only sees the fast local hop to the proxy.
 *
 *   { "type": "window", "windowBytes": 65536 }
 */
import { z } from 'zod';
import { groupDigits } from '../../contract/units.js';
import { registerStage } from '../registry.js';
import type { GateStage } from '../stage.js';

const windowSchema = z
  .object({
    type: z.literal('window'),
    windowBytes: z
      .number()
      .int()
      .min(1, 'windowBytes must be at least 1')
      .max(1024 ** 3),
  })
  .strict();

type WindowConfig = z.infer<typeof windowSchema>;

class WindowStage implements GateStage {
  readonly type = 'window';
  readonly kind = 'gate';
  constructor(readonly config: WindowConfig) {}

  capBytes(): number {
    return this.config.windowBytes;
  }
}

registerStage({
  type: 'window',
  summary: 'cap on bytes in flight (the TCP window), released one return delay after delivery',
  schema: windowSchema,
  describe: (c) => `window ${groupDigits(c.windowBytes)} bytes in flight`,
  create: (config) => new WindowStage(config),
});
