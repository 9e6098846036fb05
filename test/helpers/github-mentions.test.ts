import {describe, expect, it} from 'vitest'
import {githubMentions, shownText} from './github-mentions.js'

// The helper is GitHub's rule as html-pipeline states it (./github-mentions.ts): what it finds,
// GitHub would link and notify; so a test that finds none here has a document that notifies no one.

describe('githubMentions (GitHub’s mention rule on the rendered Markdown)', () => {
  it.each([
    ['@octocat', ['@octocat']],
    ['hi @octocat.', ['@octocat']],
    ['@octocat: check it out, @hubot!', ['@octocat', '@hubot']],
    ['**@octocat** in a table:\n\n| a |\n|---|\n| @hubot |', ['@octocat', '@hubot']],
    ['<sub>eval set @octocat</sub>', ['@octocat']],
    ['é@octocat (not an ASCII word character before it)', ['@octocat']],
    // a backslash escape is gone once the Markdown is rendered: the text node reads @octocat
    ['\\@octocat', ['@octocat']],
    ['@acme-labs/reviewers', ['@acme-labs/reviewers']],
    ['\\@acme\\-labs/reviewers\\_team', ['@acme-labs/reviewers_team']],
  ])('%j: %j', (markdown, mentions) => {
    expect(githubMentions(markdown)).toEqual(mentions)
  })

  it.each([
    '`@octocat`',
    '```\n@octocat\n```',
    '[@octocat](https://example.com)',
    'ada@example.com',
    'a_@octocat',
    '@ octocat',
    '@-octocat',
    '<!-- @octocat -->',
  ])('%j: none (code, a link, an email address, no login)', (markdown) => {
    expect(githubMentions(markdown)).toEqual([])
  })

  it('reads the text as a reader sees it: entities decoded, markup gone', () => {
    expect(shownText('a &amp; **b** `<c>` \\@d')).toBe('a & b <c> @d')
  })

  it("reads the same once the man pages' renderer is loaded (marked-man patches every marked parser in the process)", async () => {
    await import('marked-man')
    expect(shownText('a &amp; **b** `<c>` \\@d')).toBe('a & b <c> @d')
    expect(githubMentions('# t\n\nhi @octocat')).toEqual(['@octocat'])
  })
})
