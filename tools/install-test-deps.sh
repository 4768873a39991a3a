#!/usr/bin/env bash
# The Debian packages the test suite needs besides Python ones: PostgreSQL (the database
# tests start their own throw-away server), HAProxy (the tests of several server processes
# put it in front of them), Chromium (the browser tests drive
# /usr/bin/chromium with Playwright) and CJK fonts (Japanese and Chinese pages in
# screenshots). Installs only what is missing; needs root then. And PyTorch 2.13.0 for the
# learning extra's masked PPO, before the dev extra asks for torch>=2.3: the development
# machines keep its CPU build on disk; elsewhere set
# TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu for the CPU build (PyPI's is CUDA's).
set -euo pipefail
if ! python -c "import torch" 2>/dev/null; then
  pip install -q torch==2.13.0 ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"}
fi
need=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
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
