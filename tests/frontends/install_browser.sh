#!/bin/sh
# Install Debian's chromium for tests/frontends/test_server_browser.py when
# no chromium is on the machine (Playwright's own browser download cannot
# work where only the package registries are reachable).  Never fails the
# caller: without root or apt-get it says why, and the test is skipped with
# that reason.
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: installing Debian's chromium (about a minute)" >&2
    apt-get update -qq >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null ||
        echo "install_browser: apt-get could not install chromium; the browser test will be skipped" >&2
else
    echo "install_browser: no chromium, and apt-get needs root here; the browser test will be skipped" >&2
fi
exit 0
