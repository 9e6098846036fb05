# The shell functions every step of action.yml uses, sourced from the action's own checkout
# ("$GITHUB_ACTION_PATH/action/lib.sh"): said once here rather than once a step. Bash 3.2 and
# later (macOS runners), Git Bash on Windows.

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
# code for a mistake in the step), before anything runs.
usage() {
  echo "::error title=amctl action::$*"
  exit 2
}
