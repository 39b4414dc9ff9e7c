#!/usr/bin/env bash
# The action's first step: the system libraries ckschema links (libyaml, SQLite), on
# Ubuntu through apt and on macOS through Homebrew; nothing when they are there.
set -euo pipefail
case "$(uname -s)" in
  Linux)
    need=()
    pkg-config --exists yaml-0.1 2>/dev/null || need+=(libyaml-dev)
    [ -f /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
    command -v pkg-config >/dev/null || need+=(pkg-config)
    if [ ${#need[@]} -gt 0 ]; then
      if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
    fi
    ;;
  Darwin)
    brew list libyaml >/dev/null 2>&1 || brew install libyaml
    ;;
  *)
    echo "ckschema: runners other than Ubuntu and macOS are not supported ($(uname -s))" >&2
    exit 2
    ;;
esac
