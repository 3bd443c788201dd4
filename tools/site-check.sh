#!/usr/bin/env bash
# Checks the pkgdown site in docs/ in headless Chromium (Debian's chromium,
# installed here when missing): opens the home page, the reference index and
# two articles, saves screenshots to site-check/, fails when content on any
# page is wider than the main column at 1280 px, and asserts every exported
# function has a reference page linked from the index (tools/site-check.R).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
[ -f docs/index.html ] || { echo "docs/index.html is missing: run make site first" >&2; exit 1; }
Rscript tools/site-check.R
