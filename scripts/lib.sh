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
