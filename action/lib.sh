# The shell functions every step of action.yml uses, sourced from the action's own checkout
# ("$GITHUB_ACTION_PATH/action/lib.sh") first thing: said once here rather than once a step. Bash
# 3.2 and later (macOS runners), Git Bash on Windows.

# Sourcing it first makes the step's tools the system's, whatever an earlier step of the job left:
# a directory of its own first on PATH ($GITHUB_PATH: the checkout's node_modules/.bin, whose
# packages may ship a `curl` or a `head`), shell functions named like the tools (bash imports
# BASH_FUNC_curl%% from the environment, and $GITHUB_ENV takes that name), NODE_OPTIONS (GitHub's
# runner refuses it from $GITHUB_ENV, not from a workflow's or job's env:, and the executable is
# Node). Every tool here runs with AMCTL_TOKEN in its environment, curl with the GitHub token on
# its stdin. So PATH is the system's directories alone (amctl runs by its absolute path), the
# functions the shell imported are gone, and NODE_OPTIONS is unset (run_action_script sets its own, for
# the one command it runs). Git Bash on Windows has its tools under Git's own directory, whatever
# its drive: coreutils, sed and awk in /usr/bin, curl in /mingw64/bin, as the runner's bash finds
# them. (bash itself the runner finds on PATH before this runs: that one no step can choose.)
case ${OSTYPE:-} in
  msys* | cygwin*) PATH=/mingw64/bin:/usr/bin:/bin ;;
  *) PATH=/usr/bin:/bin:/usr/sbin:/sbin ;;
esac
export PATH
while read -r _ _ name; do unset -f "$name"; done < <(declare -F)
unset NODE_OPTIONS

# Runs action/comment.cjs with the installed executable's own Node (preloaded through NODE_OPTIONS,
# for this one command), the executable given WORD: action-comment (the pull-request comment) or
# action-markdown (the baseline's warnings as Markdown text, on stdout). Its exit status.
run_action_script() {
  local script=${GITHUB_ACTION_PATH//\\//}/action/comment.cjs
  NODE_OPTIONS="--require=\"${script//\"/\\\"}\"" "$AMCTL_ACTION_AMCTL" "$1"
}

# One ::error line for the step's log, then exit 1.
fail() {
  echo "::error title=amctl action::$*"
  exit 1
}

# The SHA-256 of a file, in hex: sha256sum (Linux, Git Bash) or shasum (macOS).
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum <"$1"; else shasum -a 256 <"$1"; fi | cut -d' ' -f1
}

# Sets the step's output NAME to VALUE, whatever VALUE holds: always in the delimiter form
# (NAME<<DELIMITER, the value, DELIMITER) with a delimiter drawn at random and checked not to occur
# in the value, so no newline in a value (an input's, a path's) can end it and set another output.
set_output() {
  local delimiter
  while :; do
    delimiter=amctl_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    [ "${#delimiter}" = 38 ] || fail "no random delimiter for the output $1 (od, /dev/urandom)"
    case $2 in
      *"$delimiter"*) ;;
      *) break ;;
    esac
  done
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
}

# One ::error line for the step's log naming an input that is wrong, then exit 2 (amctl's exit
# code for a mistake in the step), before anything runs. A value it names (a path) stays on the
# line: %, CR and LF escaped as the runner reads a command's message.
usage() {
  local message=$*
  message=${message//%/%25}
  message=${message//$'\r'/%0D}
  message=${message//$'\n'/%0A}
  echo "::error title=amctl action::$message"
  exit 2
}
