/**
 * One self-contained HTML file per run, to hand on. It opens with the answer, the same three lines as
 * the terminal (contract/answer-text.ts: rate · verdict, the change, the command), then the throughput
 * chart; everything else is folded under "Explain" (a native <details>, no script): both throughput
 * conventions, the verdict's detail, the advice, the what-if, the TCP charts, the per-stream table, the
 * full summary, the link emulator's settings and the PetaBumps log. No network: the file reads the same
 * in any browser, offline, and prints to PDF cleanly (print CSS, no page-split charts).
 */
import { zeroCopyLine } from '../contract/send-path-text.js';
import { bypassCaveat } from '../contract/bypass-text.js';
import { pathDirectionLabel } from '../contract/direction.js';
import { VERDICT_LABELS } from '../contract/verdict-labels.js';
import type { LonghaulResult, StreamResult } from '../contract/result.js';
import { formatRate, formatRateShort, groupDigits } from '../contract/units.js';
import { adviceNow, adviceWho } from '../contract/advice-text.js';
import { formatConsoleLog, udpLines } from './console-log.js';
import { lossChart, tcpCharts, throughputChart, whatIfChart } from './html-charts.js';
import { htmlPage, section } from './html-page.js';
import { esc } from './html-svg.js';
import { formatSummary } from './summary-block.js';
import { formatWhatIf } from '../contract/what-if-text.js';
import { delaySentence } from '../contract/delay-info.js';
import { capacityLines } from '../contract/capacity.js';
import { answerOf } from '../contract/answer-text.js';
import { rateText, shownRate } from '../contract/partial-text.js';
import { sentText, shownSent } from '../contract/sent-bytes.js';

/** A stream's seconds: its receiver's first to last byte, or in a partial run the seconds its rate is over (the rate cell says which). */
function secondsCell(s: StreamResult): string {
  const { seconds } = shownRate(s);
  return seconds === null ? 'unknown' : seconds.toFixed(3);
}

function streamTable(r: LonghaulResult): string {
  const rows = r.streams
    .map(
      (s) =>
        `<tr><td class="n">${s.id}</td><td>${esc(s.sender)}</td><td class="n">${esc(sentText(shownSent(s), groupDigits))}</td>` +
        `<td class="n">${groupDigits(s.bytes)}</td><td class="n">${secondsCell(s)}</td><td class="n">${esc(rateText(s))}</td>` +
        `<td>${esc((s.send?.error ?? s.receive?.error)?.message ?? '')}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>stream</th><th>from</th><th>bytes sent</th><th>bytes received</th><th>seconds (receiver's first to last byte)</th><th>rate received</th><th>error</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function verdicts(r: LonghaulResult): string {
  const ds = r.diagnosis ?? [];
  const bypass = bypassCaveat(r);
  const caveat = bypass ? `<p data-bypass-caveat><b>${esc(bypass)}</b></p>` : '';
  if (!ds.length) return '<p class="muted">Limiter: unknown (this result carries no diagnosis).</p>' + caveat;
  return (
    ds
      .map((d) => `<p class="verdict"><b>${esc(VERDICT_LABELS[d.verdict] ?? d.verdict)}</b> (${pathDirectionLabel(d.direction)}): ${esc(d.sentence)}</p>`)
      .join('') + caveat
  );
}

function adviceTable(r: LonghaulResult): string {
  const list = r.advice ?? [];
  if (!list.length) return '<p class="muted">No setting to change for the limit this run met.</p>';
  const rows = list
    .map(
      (a) =>
        `<tr><td>${esc(adviceWho(a))}</td><td><code>${esc(a.setting)}</code></td><td>${esc(adviceNow(a))}</td><td>${esc(a.neededValue)}</td><td><code>${esc(a.how)}</code></td><td>${esc(a.why)}</td></tr>`,
    )
    .join('');
  return (
    '<p>Longhaul changes no system setting itself. Change what is named here, then run again: the second run shows whether it worked.</p>' +
    `<table><thead><tr><th>PC</th><th>setting</th><th>now</th><th>needed</th><th>how</th><th>why</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function linkSettings(r: LonghaulResult): string {
  const l = r.link;
  if (!l) return '<p class="muted">Direct run: no link emulator.</p>';
  const s = l.settings;
  const rows: [string, string][] = s
    ? [
        ['one-way delay each direction', `${s.delayMs} ms (RTT ${2 * s.delayMs} ms)`],
        ['jitter', `${s.jitterMs} ms`],
        ['rate each way', s.rateBitsPerSec === null ? 'not limited' : formatRateShort(s.rateBitsPerSec)],
        ['emulated window', s.windowBytes === null ? 'not emulated' : `${groupDigits(s.windowBytes)} bytes`],
        ['slow start', s.slowstart ? 'on' : 'off'],
        ['modelled loss', `${(s.lossRatio * 100).toPrecision(3)} % (${s.lossPattern ?? 'random'})`],
        ['MSS', `${groupDigits(s.mssBytes)} bytes`],
      ]
    : [['stages', JSON.stringify(l.chains)]];
  return `<table><tbody>${[['preset', l.preset ?? 'none'] as [string, string], ...rows].map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table><p class="muted">${esc(l.note)}</p>`;
}

/** Delay under load: the RTT idle and under load and the queueing between them; unknown in words. */
function delayParagraph(r: LonghaulResult): string {
  if (!r.delay) return '<p class="muted" data-delay="unknown">Delay under load: unknown (this result carries no delay figures).</p>';
  return `<p data-delay="known"><b>Delay under load:</b> ${esc(delaySentence(r.delay, r.link?.settings ? 2 * r.link.settings.delayMs : null))}.</p>`;
}

/** The path's measured capacity (`--capacity`), when the result has it. */
function capacityParagraph(r: LonghaulResult): string {
  const lines = capacityLines(r);
  if (!lines.length) return '';
  const [head, ...rest] = lines;
  return `<p data-capacity="${r.capacity?.payloadBitsPerSecond === null ? 'unknown' : 'measured'}"><b>${esc(head ?? '')}</b><br>${rest.map((l) => esc(l.trim())).join('<br>')}</p>`;
}

/** The answer first: one line per direction (rate · verdict: why), the change, the command. */
function answerBlock(r: LonghaulResult): string {
  const a = answerOf(r, 'terminal');
  const line = (label: string, text: string, code = false): string =>
    `<p class="answer-line"><b>${label}</b> ${code ? `<code>${esc(text)}</code>` : esc(text)}</p>`;
  return (
    `<div class="answer" data-answer>${a.results.map((x) => line('Result:', x)).join('')}` +
    `${a.change ? line('Change:', a.change) : ''}${a.tryIt ? line('Try:', a.tryIt, true) : ''}</div>`
  );
}

/** The whole report as one HTML document. */
export function formatHtmlReport(r: LonghaulResult): string {
  const total = r.total;
  const conventions =
    (total.partialRate ? `<p data-partial-rate>${esc(rateText(total))}</p>` : '') +
    `<p>${esc(formatRate(total.bitsPerSecond))} wall-clock aggregate · ${esc(formatRate(total.streamSumBitsPerSecond))} per-stream sum</p>` +
    `<p class="muted">Wall-clock aggregate: all bytes × 8 / first byte to last byte. Per-stream sum: each stream over its own time (the PetaBumps "Total Throughput"). Never compare one with the other. Mbit = 10^6 bit.</p>`;
  const paced = r.pacing ? `<p>Paced by --bitrate: ${esc(r.pacing.note)}</p>` : '';
  const zeroCopy = zeroCopyLine(r);
  const sendPath = zeroCopy ? `<p data-send-path>${esc(zeroCopy)}</p>` : '';
  // UDP: the receiver's loss and jitter per direction, the same lines as the console log's.
  const udp = udpLines(r)
    .map((l) => `<p data-udp>${esc(l)}</p>`)
    .join('');
  const whatIf = formatWhatIf(r, 'terminal');
  // The window's what-if and the senders' RTT and cwnd are TCP's: a UDP run has neither.
  const isUdp = r.params.protocol === 'udp';
  const explain =
    section('Throughput conventions', conventions + paced + sendPath + udp) +
    section('Why not faster?', verdicts(r) + capacityParagraph(r)) +
    section('Advice', adviceTable(r)) +
    (isUdp ? '' : section('What-if', whatIfChart(r) + (whatIf.length ? `<pre>${esc(whatIf.join('\n'))}</pre>` : ''))) +
    (isUdp ? '' : section('RTT and congestion window', delayParagraph(r) + tcpCharts(r))) +
    section('Streams', streamTable(r)) +
    section('Full summary', `<pre>${esc(formatSummary(r))}</pre>`) +
    section('Link emulator', linkSettings(r)) +
    section('PetaBumps log (receiver console log)', `<pre>${esc(formatConsoleLog(r))}</pre>`);
  return htmlPage(
    `Longhaul run ${r.id}: ${r.controller.hostname} → ${r.responder.hostname}`,
    `<h1>Longhaul run ${esc(r.id)}${r.partial ? ' (PARTIAL)' : ''}</h1><p class="muted">${esc(r.controller.hostname)} → ${esc(r.responder.hostname)} (${esc(r.responder.address)}), started ${esc(r.startedAt)}, written by the ${esc(r.writtenBy)} with ${esc(r.software)}</p>` +
      answerBlock(r) +
      section('Throughput over time', throughputChart(r) + (isUdp ? lossChart(r) : '')) +
      `<details class="explain" data-explain><summary>Explain: the detail behind the answer</summary>${explain}</details>`,
  );
}
