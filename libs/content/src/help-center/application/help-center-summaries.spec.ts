import { describe, expect, it } from '@jest/globals';
import { toMarkdown, parseMarkdown } from '../../content-format/index.js';
import { markdownWords, summarize, summaryOf } from './help-center-summaries.js';

describe('help center summaries', () => {
  it('keep the words of Markdown as the content format writes it, without its syntax', () => {
    const markdown = toMarkdown(
      parseMarkdown(
        [
          '## Reset *your* password',
          'Open the [sign-in page](https://example.com/sign-in "Sign in") and choose **Forgot password**.',
          ':::callout{variant="warning"}\nLinks expire after `24 hours`!\n:::',
          '::::steps\n:::step{title="Check your email"}\nFollow the link.\n:::\n::::',
          '* one\n* two',
          '1. first',
          '> quoted \\*literally\\*',
          '| a | b |\n| --- | --- |\n| 1 | 2 |',
          '![A cat](https://example.com/cat.png)',
          'snake_case and 5 < 6 & "quotes"',
        ].join('\n\n'),
      ),
    );
    expect(markdownWords(markdown)).toBe(
      'Reset your password. Open the sign-in page and choose Forgot password. Links expire after 24 hours! Check your email. Follow the link. ' +
        'one two. first. quoted *literally*. a b. 1 2. A cat. snake_case and 5 < 6 & "quotes"',
    );
  });

  it('end a heading or a block with a full stop, so it does not run into the next sentence', () => {
    const markdown = toMarkdown(parseMarkdown('Every invoice is in Billing.\n\n## Older invoices\n\nInvoices are kept for seven years'));
    expect(markdownWords(markdown)).toBe('Every invoice is in Billing. Older invoices. Invoices are kept for seven years');
  });

  it('cut long text between words at about 200 characters', () => {
    const long = 'word '.repeat(100);
    const summary = summarize(long);
    expect(summary.length).toBeLessThanOrEqual(201);
    expect(summary.endsWith('word…')).toBe(true);
    expect(summarize('  short\n text ')).toBe('short text');
    expect(summarize(null)).toBe('');
  });

  it('prefer the meta description', () => {
    expect(summaryOf('  How to pay. ', 'Other **text**')).toBe('How to pay.');
    expect(summaryOf('', 'Other **text**')).toBe('Other text');
    expect(summaryOf(null, '')).toBe('');
  });
});
