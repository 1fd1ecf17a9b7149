# The test suite's JVM controller (sdnbench/testing/jvm: an OpenFlow 1.0/1.3 learning switch on
# netty, issue 47): one runnable jar, netty inside, built by Maven with Debian's JDK 17 (both from
# 10-apt) into that folder's target/ (git-ignored; netty from Maven Central into ~/.m2). Built
# again only when its sources change: the stamp is a hash of pom.xml and src/.
set -euo pipefail
cd "$SDNBENCH_REPO/sdnbench/testing/jvm"
for tool in java mvn; do
    command -v "$tool" >/dev/null || { echo "    jvm-peer: $tool not found: install openjdk-17-jdk-headless and maven (10-apt)" >&2; exit 1; }
done
hash=$(find pom.xml src -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum | cut -c1-12)
stamp="target/.built-$hash"
if [ -f "$stamp" ] && ls target/*.jar >/dev/null 2>&1; then
    echo "    jvm-peer: jar up to date ($hash)"
    exit 0
fi
echo "    jvm-peer: mvn -q -B package (sources $hash)"
rm -f target/.built-*
# quiet Maven still prints colour resets; its messages are shown only when the build fails
if ! log=$(mvn -q -B package 2>&1); then
    printf '%s\n' "$log" | sed 's/^/    jvm-peer: /' >&2
    exit 1
fi
touch "$stamp"
echo "    jvm-peer: built $(ls target/*.jar | grep -v /original- | head -1)"
