/**
 * The wizard's choices as one versioned JSON value in this PC's localStorage:
 * the partner (address, kind, the list), the Link form, the Test form and the
 * Sweep form. Live run and result state is not kept here: the place a tab
 * comes back to after a reload (the screen, the run, the result) is lib/place.ts.
 *
 * What is read back is checked field by field against the defaults: a field of
 * the wrong type or an unknown choice falls back to its default, and a value
 * that is not this version's JSON is ignored whole. Reading never throws.
 */
import type { PartnerKind } from '../../../electron/contract/api.js';
import { DIRECTIONS } from '../../../electron/contract/direction.js';
import type { SweepOrder, SweepPath } from '../../../electron/contract/sweep.js';
import { DEFAULT_LINK_FORM, type LinkForm } from './link-form.js';
import { DEFAULT_SWEEP_FORM, type SweepForm } from './sweep-form.js';
import { DEFAULT_FORM, type TestForm } from './test-form.js';

/** The storage key; its `/1` is the layout's version (a new layout gets a new key, the old one is then ignored). */
export const WIZARD_KEY = 'longhaul.wizard/1';
const WIZARD_SCHEMA = 'longhaul.wizard/1' as const;

/** The part of localStorage this module uses (a Map-backed fake in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface WizardChoices {
  partner: string;
  partnerKind: PartnerKind;
  partners: { address: string; ticked: boolean }[];
  link: LinkForm;
  form: TestForm;
  sweepForm: SweepForm;
}

/** At most this many partners on the list are kept (the Pair screen's list is short; a corrupt value must not grow without bound). */
const MAX_PARTNERS = 32;
/** Longer text in a field is not something a user typed. */
const MAX_TEXT = 200;

const PATHS: readonly SweepPath[] = ['direct', 'relay'];
const ORDERS: readonly SweepOrder[] = ['shuffled', 'sequential'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
const oneOf = <T extends string>(v: unknown, choices: readonly T[], fallback: T): T => (choices.includes(v as T) ? (v as T) : fallback);

/** Every text and yes/no field of `defaults`, taken from `stored` where it has the same type. */
function sameShape<T extends object>(defaults: T, stored: unknown): T {
  const out: Obj = { ...(defaults as Obj) };
  if (!isObj(stored)) return out as T;
  for (const [k, d] of Object.entries(defaults)) {
    const v = stored[k];
    if ((typeof d === 'string' && text(v)) || (typeof d === 'boolean' && typeof v === 'boolean')) out[k] = v;
  }
  return out as T;
}

/** A list of known choices, without repeats; the default when none is left. */
function choiceList<T extends string>(v: unknown, choices: readonly T[], fallback: readonly T[]): T[] {
  const list = Array.isArray(v) ? [...new Set(v.filter((x): x is T => choices.includes(x as T)))] : [];
  return list.length > 0 ? list : [...fallback];
}

function linkForm(v: unknown): LinkForm {
  const f = sameShape(DEFAULT_LINK_FORM, v);
  f.kind = oneOf(f.kind, ['direct', 'proxy'] as const, DEFAULT_LINK_FORM.kind);
  const preset = isObj(v) ? v.preset : undefined;
  f.preset = preset === null || (text(preset) && preset !== '') ? preset : DEFAULT_LINK_FORM.preset;
  return f;
}

function testForm(v: unknown): TestForm {
  const f = sameShape(DEFAULT_FORM, v);
  f.protocol = oneOf(f.protocol, ['tcp', 'udp'] as const, DEFAULT_FORM.protocol);
  f.limitBy = oneOf(f.limitBy, ['seconds', 'bytes'] as const, DEFAULT_FORM.limitBy);
  f.direction = oneOf(f.direction, DIRECTIONS, DEFAULT_FORM.direction);
  f.measurePath = oneOf(f.measurePath, ['auto', 'on', 'off'] as const, DEFAULT_FORM.measurePath);
  f.ramp = oneOf(f.ramp, ['off', 'on'] as const, DEFAULT_FORM.ramp);
  return f;
}

function sweepForm(v: unknown): SweepForm {
  const f = sameShape(DEFAULT_SWEEP_FORM, v);
  const o = isObj(v) ? v : {};
  f.directions = choiceList(o.directions, DIRECTIONS, DEFAULT_SWEEP_FORM.directions);
  f.paths = choiceList(o.paths, PATHS, DEFAULT_SWEEP_FORM.paths);
  // Preset names come from the host; one that no longer exists is refused by the sweep form's check, not here.
  const links = Array.isArray(o.links) ? [...new Set(o.links.filter(text))] : [];
  f.links = links.length > 0 ? links.slice(0, MAX_PARTNERS) : [...DEFAULT_SWEEP_FORM.links];
  f.order = oneOf(f.order, ORDERS, DEFAULT_SWEEP_FORM.order);
  return f;
}

function partnerList(v: unknown): WizardChoices['partners'] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((p): p is Obj => isObj(p) && text(p.address) && p.address.trim() !== '')
    .slice(0, MAX_PARTNERS)
    .map((p) => ({ address: p.address as string, ticked: p.ticked === true }));
}

/** The choices a fresh app starts with. */
export function defaultChoices(): WizardChoices {
  return {
    partner: '',
    partnerKind: 'longhaul',
    partners: [],
    link: { ...DEFAULT_LINK_FORM },
    form: { ...DEFAULT_FORM },
    sweepForm: {
      ...DEFAULT_SWEEP_FORM,
      directions: [...DEFAULT_SWEEP_FORM.directions],
      links: [...DEFAULT_SWEEP_FORM.links],
      paths: [...DEFAULT_SWEEP_FORM.paths],
    },
  };
}

/** A stored value (JSON text) as choices, or null when it is missing, not JSON, or not this version's. */
export function parseChoices(json: string | null): WizardChoices | null {
  if (json === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObj(v) || v.schema !== WIZARD_SCHEMA) return null;
  return {
    partner: text(v.partner) ? v.partner : '',
    partnerKind: oneOf(v.partnerKind, ['longhaul', 'iperf3'] as const, 'longhaul'),
    partners: partnerList(v.partners),
    link: linkForm(v.link),
    form: testForm(v.form),
    sweepForm: sweepForm(v.sweepForm),
  };
}

/** The choices as the JSON text stored. */
export function serializeChoices(c: WizardChoices): string {
  return JSON.stringify({ schema: WIZARD_SCHEMA, ...c });
}

/** The stored choices, or null (nothing stored, unreadable, or storage refused: private mode, a full quota). */
export function loadChoices(store: KeyValueStore): WizardChoices | null {
  try {
    return parseChoices(store.getItem(WIZARD_KEY));
  } catch {
    return null;
  }
}

/** Store the choices; false when the storage refused (the app goes on without it). */
export function saveChoices(store: KeyValueStore, c: WizardChoices): boolean {
  try {
    store.setItem(WIZARD_KEY, serializeChoices(c));
    return true;
  } catch {
    return false;
  }
}
