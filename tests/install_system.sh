#!/bin/sh
# Install the Debian packages some tests need, when they are missing:
#   chromium    tests/frontends/test_server_browser.py (Playwright's own browser
#               download cannot work where only the package registries are
#               reachable)
#   postgresql  the server's PostgreSQL tests (tests/frontends/pg_server.py runs
#               initdb and pg_ctl of Debian's package in a temporary directory)
# Never fails the caller: without root or apt-get it says why, and the tests
# that need a package are skipped with that reason.
missing=""
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing="chromium"
fi
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing="$missing postgresql"
fi
if [ -z "$missing" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install_system: installing Debian's$missing (a minute or two)" >&2
    # shellcheck disable=SC2086  # one word a package
    apt-get update -qq >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null ||
        echo "install_system: apt-get could not install$missing; the tests that need it will be skipped" >&2
else
    echo "install_system: no$missing, and apt-get needs root here; the tests that need it will be skipped" >&2
fi
exit 0
