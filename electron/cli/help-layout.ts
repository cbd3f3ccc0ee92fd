/**
 * How a command's --help reads, laid out as iperf3's: options under headings
 * ("Common:", "Run (client):"…), one or two lines each, the longer
 * explanations and two or three examples after them.
 */
import type { Command } from 'commander';

/**
 * Put options under headings, by long name (`'--port'`), once every option is
 * added: the options come from several files (run-options.ts, run-reports.ts),
 * the command decides how its own help reads. The help option (-h) joins
 * `helpHeading`. A name no option has throws: a renamed flag must not drop out of
 * its group silently.
 */
export function groupOptions(cmd: Command, groups: Readonly<Record<string, readonly string[]>>, helpHeading: string): Command {
  for (const [heading, names] of Object.entries(groups)) {
    for (const name of names) {
      const option = cmd.options.find((o) => o.long === name);
      if (!option) throw new Error(`longhaul ${cmd.name()}: no option ${name} to put under "${heading}"`);
      option.helpGroup(heading);
    }
  }
  // commander creates -h on first use, outside any group; made now, it takes the default heading.
  return cmd.optionsGroup(helpHeading).helpOption(true);
}

/** A block after the options: a heading, then its lines indented as commander indents its own. */
export function addHelpBlock(cmd: Command, heading: string, lines: readonly string[]): Command {
  return cmd.addHelpText('after', `\n${heading}\n${lines.map((l) => `  ${l}`).join('\n')}`);
}

/** The examples, last in the help: real command lines. */
export function addExamples(cmd: Command, lines: readonly string[]): Command {
  return addHelpBlock(cmd, 'Examples:', lines);
}

/**
 * `term  text…` wrapped at `width` columns, the text's later lines under its
 * first, as commander lays out an option: for lists after the options, whose
 * text commander does not wrap.
 */
export function termLines(term: string, text: string, termWidth: number, width = 78): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && termWidth + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l, i) => (i === 0 ? term : '').padEnd(termWidth) + l);
}
