#!/usr/bin/env bash
# The Debian packages the test suite needs besides Python ones: PostgreSQL (the database
# tests start their own throw-away server), Chromium (the browser tests drive
# /usr/bin/chromium with Playwright) and CJK fonts (Japanese and Chinese pages in
# screenshots). Installs only what is missing; needs root then.
set -euo pipefail
need=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need+=(fonts-noto-cjk)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "the tests need: ${need[*]} (as root: apt-get install ${need[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
