#!/usr/bin/env bash
# Set up .venv in the project root and install Yili QA into it (idempotent).
#   bash scripts/setup.sh          # the app (offline default encoder)
#   bash scripts/setup.sh test     # + test tools, and Debian's chromium + CJK fonts for the browser test
#   bash scripts/setup.sh bench    # + the baselines the benchmarks compare against
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-app}"
case "$what" in app|test|bench) ;; *) echo "usage: $0 [app|test|bench]" >&2; exit 2;; esac

python="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip_install() {
  # Some machines' pip.conf names local index folders that may not exist; hide only that noise.
  .venv/bin/python -m pip install -q --disable-pip-version-check "$@" \
    2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}

# torch first and pinned: 2.13.0 is the CPU build (an unpinned torch pulls a multi-GB CUDA build).
.venv/bin/python -c "import torch" 2>/dev/null || pip_install "torch==2.13.0"
pip_install -e ".[$what]"

if [ "$what" != app ]; then
  # The browser test drives Debian's chromium (never a downloaded browser); CJK fonts so text renders.
  if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
    else
      echo "note: install Debian's chromium and fonts-noto-cjk for the browser test (needs root)" >&2
    fi
  fi
fi
echo "Yili QA set up in .venv ($what)"
