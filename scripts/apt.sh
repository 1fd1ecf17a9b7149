# apt for the set-up steps (sourced): waits for the package lock another install holds, and says
# so on stderr (the steps send apt's own output to /dev/null), instead of failing at once with
# "Could not get lock /var/lib/dpkg/lock-frontend".
#   apt_get update -qq
#   apt_get install -y -qq --no-install-recommends PKG...
APT_LOCK_WAIT_S=${APT_LOCK_WAIT_S:-900}
APT_LOCK_FILES=${APT_LOCK_FILES:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}

# 0 when another process holds one of apt's locks (a non-blocking fcntl lock attempt fails).
apt_lock_held() {
    python3 - $APT_LOCK_FILES <<'PY'
import fcntl, os, sys
for path in sys.argv[1:]:
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        continue
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(0)
    finally:
        os.close(fd)
sys.exit(1)
PY
}

apt_get() {
    if apt_lock_held; then
        echo "    apt: another package install holds the lock; waiting for it (up to ${APT_LOCK_WAIT_S} s)" >&2
        local waited=0
        while apt_lock_held; do
            if [ "$waited" -ge "$APT_LOCK_WAIT_S" ]; then
                echo "    apt: the package lock is still held after ${APT_LOCK_WAIT_S} s; finish or stop the other install, then run make again" >&2
                return 1
            fi
            sleep 2; waited=$((waited + 2))
        done
        echo "    apt: the lock is free after ${waited} s" >&2
    fi
    # and apt's own wait, for a lock taken between the check and the call
    apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_S" "$@"
}
