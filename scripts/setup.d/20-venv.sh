# The project virtualenv, made from Debian's python3 so that it sees python3-mininet.
set -euo pipefail
cd "$SDNBENCH_REPO"
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
    echo "    venv: creating $venv from /usr/bin/python3 with --system-site-packages"
    /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
stamp="$venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
if [ -f "$stamp" ]; then
    echo "    venv: sdnbench and its dependencies already installed"
else
    echo "    venv: installing sdnbench (editable) with test extras"
    "$venv/bin/pip" install -q --upgrade pip >/dev/null
    "$venv/bin/pip" install -q -e ".[test]"
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
"$venv/bin/python" -c "import mininet.net" || { echo "    venv: cannot import mininet from $venv" >&2; exit 1; }
