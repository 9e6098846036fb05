import {join} from 'node:path'

/**
 * The completion scripts `amctl autocomplete script SHELL` prints. amctl's own rather than
 * @oclif/plugin-autocomplete's: that plugin exports none of its commands (they could be reached
 * only by a path into node_modules, which test/layers.test.ts refuses) and completes no values
 * (its bash script knows commands and flags, its zsh script offers file names for arguments).
 *
 * Each script is small and the same for every version of amctl: at every Tab it hands amctl the
 * words of the command line (`amctl __complete-v2 WORD…`, the last being the word under the
 * cursor; PowerShell sends them one per line on stdin to `amctl __complete-v2-stdin`, as it drops
 * empty arguments) and offers what comes back, each candidate inserted as one quoted word whatever
 * it holds (an ID is the server's choice): one candidate per line, a tab and a description after
 * it, then a last line `:files` (let the shell complete a path) or `:` (nothing more), as gh's
 * `__complete` does. bin/run.cjs answers those without loading the CLI, from the manifest and
 * local files only (./engine.ts): no request is ever sent.
 */

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const
export type Shell = (typeof SHELLS)[number]

// bash 3.2 (macOS) and later: no mapfile, and compopt/nosort only where they exist. The words are
// the line up to the cursor, split at blanks as bash splits them and unquoted (_amctl_words: bash's
// own COMP_WORDS are split at = and : too, and keep their quotes); what readline replaces is its
// current word, so each candidate loses what comes before that, and is then quoted (printf %q):
// readline inserts COMPREPLY as it is, so an ID such as `run_$(id)` would run when the line does.
const BASH = `# amctl completion for bash (amctl autocomplete script bash). It asks amctl at every Tab:
# nothing to regenerate after an upgrade.

# The words of $1 as bash would split them, quotes and backslashes removed, nothing expanded, in
# _amctl_w (the last is the word under the cursor, empty after a blank).
_amctl_words() {
  local line=$1 word='' c='' q='' started=''
  local -i i
  _amctl_w=()
  for (( i = 0; i < \${#line}; i++ )); do
    c=\${line:i:1}
    if [[ -n $q ]]; then
      if [[ $c == "$q" ]]; then q=
      elif [[ $q == '"' && $c == "\\\\" && \${line:i+1:1} == [\\$\\\`\\"\\\\] ]]; then word+=\${line:i+1:1}; i+=1
      else word+=$c; fi
    elif [[ $c == [[:space:]] ]]; then
      [[ -n $started ]] && _amctl_w+=("$word")
      word='' started=''
    else
      started=1
      if [[ $c == [\\'\\"] ]]; then q=$c
      elif [[ $c == "\\\\" ]]; then word+=\${line:i+1:1}; i+=1
      else word+=$c; fi
    fi
  done
  _amctl_w+=("$word")
}

_amctl_complete() {
  local line=\${COMP_LINE:0:COMP_POINT} word=\${COMP_WORDS[COMP_CWORD]} head out entry directive=''
  local -a words _amctl_w
  _amctl_words "$line"
  words=("\${_amctl_w[@]}")
  [[ $word == [=:] ]] && word=
  _amctl_words "$word"
  word=\${_amctl_w[\${#_amctl_w[@]}-1]}
  head=\${words[\${#words[@]}-1]}
  head=\${head%"$word"}
  out=$(amctl __complete-v2 "\${words[@]:1}" 2>/dev/null) || return 0
  COMPREPLY=()
  while IFS= read -r entry; do
    case $entry in
      :*) directive=$entry ;;
      # each candidate as one word, quoted unless it is plain: readline inserts COMPREPLY as it
      # is, and what a server chose as an ID (\`run_$(id)\`) must reach the line as data, never code
      *)
        entry=\${entry%%$'\\t'*}
        entry=\${entry#"$head"}
        [[ $entry == *[!A-Za-z0-9_./:=@%+,-]* ]] && printf -v entry %q "$entry"
        COMPREPLY+=("$entry")
        ;;
    esac
  done <<<"$out"
  if [[ $directive == :files ]]; then
    COMPREPLY=()
    compopt -o filenames 2>/dev/null
    while IFS= read -r entry; do COMPREPLY+=("$entry"); done < <(compgen -f -- "$word")
  fi
  return 0
}
complete -o nosort -F _amctl_complete amctl 2>/dev/null || complete -F _amctl_complete amctl
`

const ZSH = `#compdef amctl
# amctl completion for zsh (amctl autocomplete script zsh): put it in a directory of $fpath as
# _amctl. It asks amctl at every Tab: nothing to regenerate after an upgrade.
_amctl() {
  local out entry value directive
  local -i width=0
  local -a lines values descriptions displays
  out=$(amctl __complete-v2 "\${(@Q)words[2,CURRENT-1]}" "\${(Q)PREFIX}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  directive=\${lines[-1]}
  lines[-1]=()
  if [[ $directive == :files ]]; then
    _files
    return
  fi
  (( \${#lines} )) || return 1
  for entry in "\${lines[@]}"; do
    value=\${entry%%$'\\t'*}
    values+=("$value")
    if [[ $entry == *$'\\t'* ]]; then descriptions+=("\${entry#*$'\\t'}"); else descriptions+=(""); fi
    (( \${#value} > width )) && width=\${#value}
  done
  for (( i = 1; i <= \${#values}; i++ )); do
    if [[ -n \${descriptions[i]} ]]; then displays+=("\${(r:width:)values[i]}  -- \${descriptions[i]}"); else displays+=("\${values[i]}"); fi
  done
  # in amctl's order (the newest run first), one a line with its description
  compadd -V amctl -l -d displays -a values
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _amctl "$@"
else
  compdef _amctl amctl
fi
`

const FISH = `# amctl completion for fish (amctl autocomplete script fish): save it as
# ~/.config/fish/completions/amctl.fish. It asks amctl at every Tab: nothing to regenerate.
function __amctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    # the word under the cursor without its quotes and backslashes, as -o gives the others
    set -l current (commandline -ct | string unescape)
    set -l out (amctl __complete-v2 $words "$current" 2>/dev/null)
    or return
    test (count $out) -gt 0; or return
    if test "$out[-1]" = ':files'
        __fish_complete_path "$current"
        return
    end
    set -e out[-1]
    printf '%s\\n' $out
end
complete -c amctl -f -k -a '(__amctl_complete)'
`

const POWERSHELL = `# amctl completion for PowerShell (amctl autocomplete script powershell): dot-source it from
# $PROFILE. It asks amctl at every Tab: nothing to regenerate after an upgrade.
Register-ArgumentCompleter -Native -CommandName amctl -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @()
    foreach ($element in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($element.Extent.EndOffset -ge $cursorPosition) { break }
        if ($element -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $words += $element.Value }
        else { $words += $element.Extent.Text }
    }
    $words += $wordToComplete
    # one word a line on stdin: PowerShell drops an empty argument, and the word under the cursor often is one
    $out = @($words | amctl __complete-v2-stdin 2>$null)
    if ($out.Count -eq 0 -or $out[-1] -eq ':files') { return }
    for ($i = 0; $i -lt $out.Count - 1; $i++) {
        $value, $description = $out[$i] -split "\`t", 2
        if (-not $description) { $description = $value }
        # PowerShell inserts the text as it is: anything but plain characters goes in single quotes
        # (a quote doubled, the typographic ones too), so an ID such as run_$(id) stays data
        $text = $value
        if ($value -notmatch '^[\\w./:=+-]+$') { $text = "'" + ($value -replace "['\\u2018\\u2019\\u201A\\u201B]", '$0$0') + "'" }
        [System.Management.Automation.CompletionResult]::new($text, $value, 'ParameterValue', $description)
    }
}
`

export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return BASH
    case 'zsh':
      return ZSH
    case 'fish':
      return FISH
    case 'powershell':
      return POWERSHELL
  }
}

/**
 * The files that setups made by earlier versions of amctl (through @oclif/plugin-autocomplete) source from the cache directory (a line in the
 * shell's profile that sources `<cache>/autocomplete/bash_setup` or `zsh_setup`, or dot-sources
 * the PowerShell function): `amctl autocomplete --refresh-cache` writes today's scripts there,
 * so such a setup keeps working. Paths relative to the cache directory.
 */
export function legacySetupFiles(cache: string): Record<string, string> {
  const zshFunctions = join(cache, 'autocomplete', 'functions', 'zsh')
  return {
    [join('autocomplete', 'bash_setup')]: BASH,
    [join('autocomplete', 'zsh_setup')]: `fpath=(${zshFunctions.replace(/[\\\s'"$`]/g, '\\$&')} $fpath)\nautoload -Uz compinit\ncompinit\n`,
    [join('autocomplete', 'functions', 'zsh', '_amctl')]: ZSH,
    [join('autocomplete', 'functions', 'powershell', 'amctl.ps1')]: POWERSHELL,
  }
}
