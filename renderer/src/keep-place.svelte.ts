/**
 * The app keeps its place: the screen, the run being watched and the result shown are stored per tab
 * (lib/place.ts) and the screen is named in the address (`/#results`), so a reload comes back to it: a
 * run still going is watched again (its samples from then on), one that ended meanwhile opens its Results.
 * Each new place is also an entry in the browser's history, so Back and Forward move between screens (in
 * the desktop app nothing offers them; harmless).
 */
import { tick } from 'svelte';
import { api } from './bridge/index.js';
import { PLACE_KEY, parsePlace, placeOf, samePlace, type Place } from './lib/place.js';
import { reattachRun } from './run-control.js';
import { app, goTo, openStoredResult } from './state.svelte.js';

/** Show `place`: a plain screen at once; a run or a result once the host has said where it is. */
async function show(place: Place): Promise<void> {
  try {
    if (place.screen === 'run') {
      const s = await api.runState({ runId: place.runId });
      if (s.state === 'running') reattachRun(place.runId, s);
      else if (s.state === 'ended') openStoredResult(await api.loadResult({ id: s.resultId }));
      else goTo('start');
    } else if (place.screen === 'results') {
      openStoredResult(await api.loadResult({ id: place.resultId }));
    } else {
      goTo(place.screen);
    }
  } catch {
    // The result is gone from History (deleted, pruned): its list is the nearest place that can say so.
    goTo('history');
  }
}

/** Come back to the stored place, then keep the place as it changes. Returns the function that stops it. */
export function keepPlace(store: Storage | null = tabStorage()): () => void {
  let ready = $state(false);
  /** The place the browser's current history entry holds. */
  let entry: Place | null = null;
  /** A change that Back/Forward asked for replaces the entry it lands on instead of adding one. */
  let replacing = false;
  const stopEffect = $effect.root(() => {
    $effect(() => {
      const place = placeOf(app.screen, app.run?.runId || null, app.screen === 'results' ? (app.result?.id ?? null) : null);
      if (!ready || place === null) return;
      store?.setItem(PLACE_KEY, JSON.stringify(place));
      if (samePlace(place, entry)) return;
      // A run's Results take the place of its Run screen: Back from them goes to the step before the run.
      if (replacing || (entry?.screen === 'run' && place.screen === 'results')) history.replaceState(place, '', `#${place.screen}`);
      else history.pushState(place, '', `#${place.screen}`);
      entry = place;
    });
  });
  const onPop = (ev: PopStateEvent): void => {
    // A run in progress is not left by Back: its Run screen stays (Stop ends it).
    if (app.screen === 'run' && app.run && !app.result) {
      if (entry) history.pushState(entry, '', `#${entry.screen}`);
      return;
    }
    const place = parsePlace(JSON.stringify(ev.state ?? null)) ?? { screen: 'start' };
    entry = place;
    replacing = true;
    void show(place)
      .then(tick)
      .finally(() => (replacing = false));
  };
  window.addEventListener('popstate', onPop);
  // Only a page whose address still names its screen (a reload, Back into the app) comes back to its place:
  // opening the bare address or the launch link starts at Start.
  const kept = parsePlace(store?.getItem(PLACE_KEY) ?? null);
  const named = parsePlace(JSON.stringify({ screen: decodeURIComponent(location.hash.slice(1)) }));
  const stored = kept && location.hash === `#${kept.screen}` ? kept : named;
  entry = stored ?? { screen: 'start' };
  history.replaceState(entry, '', `#${entry.screen}`);
  void (stored ? show(stored) : Promise.resolve()).then(tick).finally(() => (ready = true));
  return () => {
    window.removeEventListener('popstate', onPop);
    stopEffect();
  };
}

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
