#!/bin/bash
# Runs inside a clean Debian root, as its root, for scripts/test-packaging (which copied what it
# needs to /pkg and made this a private mount, network and process namespace: every process
# started here ends with it, and 127.0.0.1 is the root's own).
#
#   SUITE=… VERSION=… DEB=… TARBALL=… [BUILD_SOURCE=1] bash /pkg/in-root.sh
#   SUITE=… VERSION=… PACKAGE=rpm bash /pkg/in-root.sh
#
# It trusts the test CA through the root's own store (update-ca-certificates), installs the
# .deb with apt (which must pull nothing but what the package declares, and download nothing),
# installs the tarball as a user with its install.sh, and checks each installed pasteup:
# --version, a pipeline paste over https, --retry from the outbox after a 503, and a hotkey
# paste under the root's own Xvfb and xclip. With BUILD_SOURCE=1 it then builds the Debian
# source package in /pkg/src with the root's swiftlang, runs lintian (no errors), installs that
# package instead and checks it the same way.
#
# With PACKAGE=rpm the .rpm is already installed (scripts/test-packaging installed it with rpm
# --root from outside, apt knowing nothing of it): that pasteup is checked the same way, and it
# pastes to the package's own paste-mock and reads the paste back.
set -euo pipefail
export LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive
user=tester
home=/home/$user
state=/srv/pastebin
say() { echo "packaging[$SUITE]: $*"; }
fail() { echo "packaging[$SUITE]: FAILED: $*" >&2; exit 1; }
# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds, failing after SECONDS.
wait_for() {
  local limit=$1 what=$2 end
  shift 2
  end=$((SECONDS + limit))
  until "$@"; do
    ((SECONDS < end)) || fail "$what: not within ${limit}s"
    sleep 0.1
  done
}
as_user() { setpriv --reuid="$user" --regid="$user" --init-groups env -i HOME="$home" USER="$user" \
  PATH="$home/.local/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 ${DISPLAY:+DISPLAY=$DISPLAY} "$@"; }

# --- Trust: the test CA goes into this root's own store, nowhere else. -----------------------
mkdir -p /usr/local/share/ca-certificates
cp /pkg/ca.crt /usr/local/share/ca-certificates/paste-test-ca.crt
update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates"
grep -qF "$(sed -n 2p /pkg/ca.crt)" /etc/ssl/certs/ca-certificates.crt || fail "the CA is not in the root's store"

# --- The .deb through apt: nothing pulled but what it declares, nothing downloaded. ----------
install_deb() { # DEB
  local deb=$1 declared allowed pulled extra
  declared=$(dpkg-deb -f "$deb" Depends Recommends | sed 's/^[A-Za-z-]*: //' | tr ',|' '\n\n' \
    | sed 's/([^)]*)//g; s/:any//; s/[[:space:]]//g' | grep -v '^$' | sort -u)
  allowed=$({ echo pasteup; echo "$declared"; apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances $declared 2>/dev/null | grep -v '^ ' | tr -d '<>'; } | sort -u)
  pulled=$(apt-get install -s --no-download "$deb" 2>&1 | sed -n 's/^Inst \([^ ]*\) .*/\1/p' | sort -u)
  [[ -n $pulled ]] || fail "apt-get install -s $deb installs nothing: $(apt-get install -s --no-download "$deb" 2>&1 | tail -n 3)"
  extra=$(comm -23 <(echo "$pulled") <(echo "$allowed"))
  [[ -z $extra ]] || fail "apt would pull what $deb does not declare: $extra"
  say "apt installs $(echo "$pulled" | tr '\n' ' ')(declared: $(echo "$declared" | tr '\n' ' '))"
  # No --no-download here (bookworm's apt then refuses a local .deb's relative name); nothing can
  # be downloaded anyway: this namespace has no network but its own loopback.
  apt-get install -y -qq "$deb" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; fail "apt-get install $deb"; }
  dpkg -L pasteup | grep -qx /usr/bin/paste && fail "the package owns /usr/bin/paste"
  [[ $(dpkg -S /usr/bin/paste) == coreutils:* ]] || fail "/usr/bin/paste is not coreutils' any more"
  [[ $(readlink -f /usr/lib/paste/bin/paste) == /usr/bin/pasteup ]] || fail "/usr/lib/paste/bin/paste is not pasteup"
  [[ $(PATH=/usr/lib/paste/bin:$PATH man -w paste) == /usr/lib/paste/share/man/man1/paste.1* ]] \
    || fail "man paste with /usr/lib/paste/bin first on PATH does not find paste's page"
  man -w pasteup >/dev/null || fail "no pasteup(1)"
}

# --- The pastebin, the user, the display. ------------------------------------------------------
mkdir -p "$state" && chmod 1777 "$state"
python3 /pkg/pastebin.py /pkg/server.crt /pkg/server.key "$state" 2>"$state/log" &
wait_for 20 "the https pastebin to listen" test -s "$state/port"
port=$(cat "$state/port")
id "$user" >/dev/null 2>&1 || useradd -m -s /bin/bash "$user"
fifo=$(mktemp -u /tmp/xvfb.XXXXXX)
mkfifo "$fifo" && chmod 666 "$fifo"
as_user Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$fifo" >/tmp/xvfb.log 2>&1 &
read -r -t 20 display <"$fifo" || { cat /tmp/xvfb.log >&2; fail "Xvfb did not start within 20 s"; }
export DISPLAY=":$display"
as_user mkdir -p "$home/.config/paste"
as_user tee "$home/.config/paste/config" >/dev/null <<CONFIG
[paste]
    service = local
    retries = 0
[service "local"]
    url = https://127.0.0.1:$port/
    format = raw
    result = body
CONFIG

latest() { ls "$state/pastes" | sort -n | tail -n 1; }
paste_is() { [[ $(cat "$state/pastes/$1" 2>/dev/null) == "$2" ]]; }
clipboard_is() { [[ $(as_user timeout 5 xclip -o -selection clipboard 2>/dev/null) == "$1" ]]; }

check() { # LABEL BINARY
  local label=$1 bin=$2 out status text url before
  local version
  version=$(as_user "$bin" --version | head -n 1)
  [[ $version == "paste $VERSION" ]] || fail "$label: --version says '$version'"

  # A pipeline: the URL on stdout, the text on the server, over https the root's store trusts.
  text="pipeline $SUITE $label"
  out=$(echo "$text" | as_user timeout 60 "$bin" 2>/tmp/err) || fail "$label: pipeline paste: $(cat /tmp/err)"
  [[ $out =~ ^https://127\.0\.0\.1:$port/([0-9]+)$ ]] || fail "$label: pipeline paste printed '$out' ($(cat /tmp/err))"
  paste_is "${BASH_REMATCH[1]}" "$text" || fail "$label: the server holds '$(cat "$state/pastes/${BASH_REMATCH[1]}")'"

  # The outbox: the service answers 503, the text waits; --retry (run by a person) sends it.
  text="outbox $SUITE $label"
  before=$(latest)
  touch "$state/down"
  status=0
  echo "$text" | as_user timeout 60 "$bin" >/dev/null 2>/tmp/err || status=$?
  ((status == 75)) || fail "$label: a paste to a service that is down exited $status, not 75: $(cat /tmp/err)"
  [[ $(latest) == "$before" ]] || fail "$label: the server kept a paste while down"
  rm -f "$state/down"
  # On a terminal (python's pty: util-linux's script is not in every root), as a person runs it.
  as_user timeout 60 python3 -c 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)' "$bin" --retry \
    >/tmp/retry 2>&1 || fail "$label: --retry: $(cat /tmp/retry)"
  paste_is "$(latest)" "$text" || fail "$label: --retry did not send the outbox's text ($(cat /tmp/retry))"

  # A hotkey: no terminal, nothing piped: the clipboard's text goes up, its URL comes back.
  text="hotkey $SUITE $label"
  printf '%s' "$text" | as_user xclip -selection clipboard -i
  wait_for 10 "$label: xclip to own the clipboard" clipboard_is "$text"
  url=$(as_user timeout 60 "$bin" </dev/null 2>/tmp/err) || fail "$label: hotkey paste: $(cat /tmp/err)"
  [[ $url =~ ^https://127\.0\.0\.1:$port/([0-9]+)$ ]] || fail "$label: hotkey paste printed '$url' ($(cat /tmp/err))"
  paste_is "${BASH_REMATCH[1]}" "$text" || fail "$label: the hotkey paste sent '$(cat "$state/pastes/${BASH_REMATCH[1]}")'"
  wait_for 15 "$label: the URL on the clipboard" clipboard_is "$url"
  say "$label: --version, pipeline, outbox --retry and hotkey paste all work ($bin)"
}

# A paste to the package's own paste-mock (plain http on 127.0.0.1), read back.
check_mock() { # LABEL BINARY MOCK
  local label=$1 bin=$2 mock=$3 base url text mock_pid
  text="mock $SUITE $label"
  as_user "$mock" --port 0 >/tmp/mock.out 2>/tmp/mock.err &
  mock_pid=$!
  wait_for 20 "$label: paste-mock to listen" grep -q '^listening on ' /tmp/mock.out
  base=$(head -n 1 /tmp/mock.out | sed 's/^listening on //')
  url=$(printf '%s\n' "$text" | as_user timeout 60 "$bin" --url "$base/pastes/create" 2>/tmp/err) \
    || fail "$label: a paste to paste-mock: $(cat /tmp/err)"
  [[ $url == "$base"/pastes/* ]] || fail "$label: a paste to paste-mock printed '$url' ($(cat /tmp/err))"
  [[ $(python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' \
    "$url.txt") == "$text" ]] || fail "$label: paste-mock does not hold '$text' at $url.txt"
  kill "$mock_pid"
  wait "$mock_pid" 2>/dev/null || true
  say "$label: a paste to its own paste-mock read back ($url)"
}

SECONDS=0
if [[ ${PACKAGE:-deb} == rpm ]]; then
  # Installed by rpm, not dpkg: coreutils' paste untouched, the package's files in place.
  [[ $(dpkg -S /usr/bin/paste) == coreutils:* ]] || fail "/usr/bin/paste is not coreutils' any more"
  ! dpkg -S /usr/bin/pasteup >/dev/null 2>&1 || fail "dpkg owns /usr/bin/pasteup: this root is not clean"
  [[ $(readlink -f /usr/lib/paste/bin/paste) == /usr/bin/pasteup ]] || fail "/usr/lib/paste/bin/paste is not pasteup"
  man -w pasteup >/dev/null || fail "no pasteup(1)"
  check rpm /usr/bin/pasteup
  check_mock rpm /usr/bin/pasteup /usr/bin/paste-mock
  say "done in ${SECONDS}s"
  exit 0
fi
install_deb "/pkg/$DEB"
check deb /usr/bin/pasteup

as_user tar -xzf "/pkg/$TARBALL" -C "$home"
as_user "$home/${TARBALL%.tar.gz}/install.sh" --prefix "$home/.local" >/tmp/install.log 2>&1 \
  || { cat /tmp/install.log >&2; fail "the tarball's install.sh"; }
[[ -x $home/.local/bin/pasteup && -L $home/.local/lib/paste/bin/paste ]] || fail "install.sh did not install pasteup"
check tarball "$home/.local/bin/pasteup"
as_user "$home/${TARBALL%.tar.gz}/install.sh" --prefix "$home/.local" --uninstall >/dev/null \
  || fail "install.sh --uninstall"
[[ ! -e $home/.local/bin/pasteup ]] || fail "install.sh --uninstall left pasteup"

if [[ ${BUILD_SOURCE:-} == 1 ]]; then
  say "building the source package with $(swift --version 2>&1 | head -n 1)"
  apt-get remove -y -qq pasteup >/dev/null
  build=$home/build
  as_user mkdir -p "$build"
  cp -r /pkg/src "$build/pasteup-$VERSION"
  chown -R "$user:$user" "$build"
  start=$SECONDS
  (cd "$build/pasteup-$VERSION" && as_user dpkg-buildpackage -us -uc -b >"$build/build.log" 2>&1) \
    || { tail -n 40 "$build/build.log" >&2; fail "dpkg-buildpackage"; }
  say "dpkg-buildpackage took $((SECONDS - start))s"
  changes=$(ls "$build"/pasteup_*.changes)
  as_user lintian --fail-on error --tag-display-limit 0 "$changes" >"$build/lintian.log" 2>&1 \
    || { cat "$build/lintian.log" >&2; fail "lintian found errors"; }
  say "lintian: $(grep -c '^[EW]:' "$build/lintian.log" || true) errors and warnings:"
  sed 's/^/    /' "$build/lintian.log"
  grep -q '^E:' "$build/lintian.log" && fail "lintian errors"
  deb=$(ls "$build"/pasteup_"$VERSION"_*.deb)
  cp "$deb" /tmp/
  install_deb "/tmp/$(basename "$deb")"
  check source-package /usr/bin/pasteup
fi
say "done in ${SECONDS}s"
