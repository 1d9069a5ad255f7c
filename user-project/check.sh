#!/usr/bin/env bash
# Builds user-project as a user of shmem4j would, against installed artifacts only: installs
# shmem4j (parent, core, launcher, junit) into a private local repository seeded from ~/.m2 (so it works
# offline and never writes to ~/.m2), builds a copy of the skeleton outside this repository
# against it, and runs it as a job of 4 PEs. Then checks that Maven on a JDK older than 25 stops
# with the skeleton's message. Run by .ci/run; usage: user-project/check.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
. "$root/bin/jdk25.sh"
find_jdk25
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repository
cp -a "$HOME/.m2/repository" "$repo"
rm -rf "$repo/org/shmem4j" # only what this check installs
echo "user-project: installing shmem4j into $repo (the README's install command)"
"$root/bin/mvn25" -o -B -q -Dmaven.repo.local="$repo" install -DskipTests
# Only the library, the launcher and the JUnit extension are installed; the library and the
# launcher each with their sources and Javadoc.
installed=$(cd "$repo/org/shmem4j" && ls | sort | tr '\n' ' ')
if [ "$installed" != "shmem4j shmem4j-junit shmem4j-launcher shmem4j-parent " ]; then
  echo "FAIL: installed org.shmem4j artifacts are '$installed', expected shmem4j shmem4j-junit shmem4j-launcher shmem4j-parent" >&2
  exit 1
fi
for a in shmem4j shmem4j-launcher; do
  for kind in "" -sources -javadoc; do
    if ! compgen -G "$repo/org/shmem4j/$a/*/$a-*[0-9T]$kind.jar" >/dev/null; then
      echo "FAIL: $a$kind.jar was not installed" >&2
      exit 1
    fi
  done
done

# As a user: plain Maven on a JDK 25, in a directory of their own.
cp -r "$here" "$work/app"
rm -rf "$work/app/target" "$work/app/check.sh"
user_mvn() {
  JAVA_HOME=$JAVA25 MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" \
    mvn -o -B -q -Dmaven.repo.local="$repo" -f "$work/app/pom.xml" "$@"
}
echo "user-project: building against the installed artifacts"
user_mvn package
echo "user-project: running on 4 PEs"
# (Debian's Maven 3.8 writes colour resets even in batch mode: strip them)
out=$(cd "$work" && user_mvn exec:exec@oshrun -Dpes=4 | sed 's/\x1b\[[0-9;]*m//g')
echo "$out" | sed 's/^/  /'
if ! grep -q '^pi = 3\.14159265.* on 4 PEs' <<<"$out"; then
  echo "FAIL: user-project did not print pi computed on 4 PEs" >&2
  exit 1
fi

# The enforcer's message on an older JDK (skipped, saying so, when there is none).
old=""
for d in /usr/lib/jvm/*; do
  [ -x "$d/bin/java" ] || continue
  v=$(java_major "$d")
  if [ -n "$v" ] && [ "$v" -lt 25 ]; then old=$d; break; fi
done
if [ -z "$old" ]; then
  echo "user-project: no JDK older than 25 under /usr/lib/jvm; the enforcer check did not run"
else
  if msg=$(JAVA_HOME=$old mvn -o -B -Dmaven.repo.local="$repo" -f "$work/app/pom.xml" validate 2>&1); then
    echo "FAIL: Maven on $old accepted the user project" >&2
    exit 1
  fi
  if ! grep -q 'shmem4j needs JDK 25 or newer' <<<"$msg"; then
    echo "FAIL: Maven on $old failed without the enforcer's message:" >&2
    echo "$msg" | tail -20 >&2
    exit 1
  fi
  echo "user-project: Maven on $old stops with: $(grep -o 'shmem4j needs JDK 25.*' <<<"$msg" | head -1)"
fi
echo "user-project: OK"
