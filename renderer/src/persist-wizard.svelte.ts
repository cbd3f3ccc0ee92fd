/**
 * The one place the wizard's choices meet localStorage: restored into `app`
 * at start, written back (debounced) when they change, and once more when the
 * page goes away so a reload right after typing keeps the last keystroke.
 * The format and its checks are lib/persist.ts.
 */
import { loadChoices, saveChoices, type KeyValueStore, type WizardChoices } from './lib/persist.js';
import { app } from './state.svelte.js';

/** Typing settles within this; a write per keystroke would be wasted work. */
const WRITE_DELAY_MS = 300;

/** The choices as they are now; while "Both on this PC" runs, the partner kept is the real one, never the loopback responder's port. */
function snapshot(keptPartner: string): WizardChoices {
  return {
    partner: app.loopback ? keptPartner : app.partner,
    partnerKind: app.partnerKind,
    partners: app.partners.map((p) => ({ address: p.address, ticked: p.ticked })),
    link: { ...app.link },
    form: { ...app.form },
    sweepForm: { ...app.sweepForm, directions: [...app.sweepForm.directions], links: [...app.sweepForm.links], paths: [...app.sweepForm.paths] },
  };
}

/**
 * Restore the stored choices into `app`, then keep storing them. Returns the function that stops it.
 * `store` is the window's localStorage unless given (null when the browser refuses it: then nothing is kept).
 */
export function persistWizard(store: KeyValueStore | null = browserStorage()): () => void {
  if (!store) return () => undefined;
  const stored = loadChoices(store);
  if (stored) {
    app.partner = stored.partner;
    app.partnerKind = stored.partnerKind;
    app.partners = stored.partners;
    app.link = stored.link;
    app.form = stored.form;
    app.sweepForm = stored.sweepForm;
  }
  let kept = stored?.partner ?? '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: WizardChoices | null = null;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending) saveChoices(store, pending);
    pending = null;
  };
  const stopEffect = $effect.root(() => {
    $effect(() => {
      const c = snapshot(kept);
      kept = c.partner;
      pending = c;
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, WRITE_DELAY_MS);
    });
  });
  window.addEventListener('pagehide', flush);
  return () => {
    flush();
    window.removeEventListener('pagehide', flush);
    stopEffect();
  };
}

function browserStorage(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
