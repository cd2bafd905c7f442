#!/usr/bin/env bash
# Debian's Chromium for the browser tests; installed once, by the test set-up, never by hand.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure_chromium: chromium is missing and installing it needs root (apt-get install chromium)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
command -v chromium
