/**
 * A partner's address as a door takes it (the app's requests, a sweep plan):
 * one rule, so an address the CLI's sweep accepts is one the Sweep screen's
 * host accepts too.
 */
import { z } from 'zod';

/** A host name or an IP literal: nothing that could be a path or a URL. */
export const hostSchema = z
  .string()
  .trim()
  .min(1, 'the address is empty')
  .max(255)
  .regex(/^[A-Za-z0-9.:_%-]+$/, 'the address may hold letters, digits, ".", ":", "-" only');

/** A TCP port to connect to. */
export const portSchema = z.number().int().min(1).max(65535);
