# Shared by scripts/test, scripts/demo and scripts/bench: a virtual display when none is open.

# start_xvfb: sets DISPLAY to a fresh Xvfb unless one is already usable; remembers its pid.
start_xvfb() {
  if [[ -n ${DISPLAY:-} ]] && xdpyinfo >/dev/null 2>&1; then return 0; fi
  if [[ -n ${DISPLAY:-} ]] && xclip -o -selection clipboard >/dev/null 2>&1; then return 0; fi
  command -v Xvfb >/dev/null || { echo "Xvfb is missing: run scripts/bootstrap" >&2; return 1; }
  local fifo
  fifo=$(mktemp -u /tmp/paste-xvfb.XXXXXX)
  mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$fifo" >/dev/null 2>&1 &
  XVFB_PID=$!
  local number
  if ! read -r -t 20 number <"$fifo"; then
    rm -f "$fifo"
    echo "Xvfb did not start within 20 s" >&2
    return 1
  fi
  rm -f "$fifo"
  export DISPLAY=":$number"
  trap stop_xvfb EXIT
}

stop_xvfb() {
  if [[ -n ${XVFB_PID:-} ]]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
}

# Debian roots made by mmdebstrap, cached outside the checkout (scripts/test-packaging's roots
# and scripts/test-desktops-sid's): PASTE_ROOTS (default /var/cache/paste-roots), made again
# when older than PASTE_ROOTS_DAYS days (default 7) or made for another package list (NAME.tar
# beside NAME.tar.packages, the list it was made with): a warm run downloads nothing.
#
# ensure_debian_root NAME SUITE INCLUDE LOG [MMDEBSTRAP-OPTION...]: makes $PASTE_ROOTS/NAME.tar
# (a SUITE system holding INCLUDE, comma-separated) unless a fresh one made for INCLUDE is
# there; mmdebstrap's output goes to LOG, whose tail is shown when it fails. Returns non-zero
# (and says why) on failure. Sid's Release file is past its Valid-Until date on the mirror our
# machines reach: the check is off for every suite.
ensure_debian_root() {
  local name=$1 suite=$2 include=$3 log=$4
  shift 4
  local cache=${PASTE_ROOTS:-/var/cache/paste-roots} max_days=${PASTE_ROOTS_DAYS:-7}
  local mirror=${PASTE_DEBIAN_MIRROR:-http://deb.debian.org/debian} tarball
  tarball=$cache/$name.tar
  mkdir -p "$cache"
  if [[ -f $tarball && -z $(find "$tarball" -mtime "+$max_days") && $(cat "$tarball.packages" 2>/dev/null) == "$include" ]]; then
    return 0
  fi
  echo "roots: making the $name root ($suite) with mmdebstrap (cached in $tarball)"
  # In a mount namespace of its own: whatever happens, mmdebstrap's mounts end with it.
  if ! unshare --mount --propagation private mmdebstrap --variant=apt --include="$include" \
    --aptopt='Acquire::Check-Valid-Until "false"' "$@" "$suite" "$cache/$name.new.tar" "$mirror" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    rm -f "$cache/$name.new.tar"
    echo "roots: mmdebstrap $suite ($name) failed" >&2
    return 1
  fi
  mv -f "$cache/$name.new.tar" "$tarball"
  printf '%s' "$include" >"$tarball.packages"
}
