# The desktop entry and the systemd user units as scripts/install writes them: the absolute path
# of the installed binary put in, written the way each format reads it. Sourced by
# scripts/install; Tests/PasteCLITests/SystemdUnitTests.swift runs them on their own.
#
#   desktop_entry EXECUTABLE  <paste.desktop
#   systemd_unit EXECUTABLE NAME  <paste-retry.service (or .timer)

# The Desktop Entry Specification's Exec: `%` starts a field code (`%%` is a `%`); a path with a
# blank or one of `"`, `` ` ``, `$`, `\` is quoted, those four escaped with a backslash inside
# the quotes, and every backslash doubled once more by the string escape rule (so `\\\\` is one
# backslash, `\\$` a dollar sign). TryExec is a plain string: only its backslashes doubled.
desktop_entry() {
  local executable=${1//%/%%}
  if [[ $executable =~ [[:space:]\"\`\$\\] ]]; then
    executable=${executable//\\/\\\\\\\\}
    executable=${executable//\"/\\\\\"}
    executable=${executable//\`/\\\\\`}
    executable=${executable//\$/\\\\\$}
    executable="\"$executable\""
  fi
  local line
  while IFS= read -r line; do
    case $line in
      Exec=paste\ *) printf 'Exec=%s %s\n' "$executable" "${line#Exec=paste }" ;;
      TryExec=paste) printf 'TryExec=%s\n' "${1//\\/\\\\}" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
}

# systemd's ExecStart (systemd.service(5), "Command lines"; systemd.unit(5), "Specifiers"): `%`
# starts a specifier even in the executable's path (`%h` is the home folder; `%%` is a `%`); a
# path with a blank is double-quoted. `$` is not expanded in the executable's own word, and a
# quote or a backslash systemd refuses there ("Executable name contains special characters"):
# scripts/install refuses such a prefix before it builds.
systemd_unit() {
  local executable=${1//%/%%}
  [[ $executable =~ [[:space:]] ]] && executable="\"$executable\""
  local name=$2 line
  while IFS= read -r line; do
    case $line in
      ExecStart=paste\ *) printf 'ExecStart=%s %s\n' "$executable" "${line#ExecStart=paste }" ;;
      Unit=paste-retry.service) printf 'Unit=%s-retry.service\n' "$name" ;;
      *) printf '%s\n' "${line//paste-retry./$name-retry.}" ;;
    esac
  done
}
